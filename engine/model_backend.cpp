#include "model_backend.h"

#include "couplet_model_generator.h"

namespace couplet {

std::shared_ptr<CoupletGenerator> loadModelBackend(const std::filesystem::path& dir, const DeviceOptions& options)
{
    return std::make_shared<CoupletModelGenerator>(CoupletModel::load(dir, options));
}

} // namespace couplet
