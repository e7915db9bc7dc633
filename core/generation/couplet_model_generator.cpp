#include "couplet_model_generator.h"

#include <torch/torch.h>

namespace couplet {

CoupletModelGenerator CoupletModelGenerator::of(const CoupletModel& model)
{
    // An aliasing pointer that owns nothing: the caller keeps the model.
    return CoupletModelGenerator(std::shared_ptr<const CoupletModel>(std::shared_ptr<const void>(), &model));
}

void CoupletModelGenerator::setThreads(int threads)
{
    if (threads > 0) torch::set_num_threads(threads);
}

} // namespace couplet
