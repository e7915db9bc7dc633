#include "model_options.h"

namespace couplet::cli {

std::shared_ptr<const CoupletModel> loadModel(Args& args)
{
    DeviceOptions options;
    options.device = args.value("device", "auto");
    options.threads = args.integer("threads", 0);
    options.halfPrecision = !args.flag("fp32");
    const std::filesystem::path dir = args.value("model", CoupletModel::defaultModelDir().string());
    return CoupletModel::load(dir, options);
}

const char* modelOptionsHelp()
{
    return "model options:\n"
           "  --model PATH       model folder (default: the shipped model)\n"
           "  --device D         cpu, cuda or auto (default auto)\n"
           "  --threads N        CPU threads (default: all cores)\n"
           "  --fp32             full precision on a GPU (default fp16)\n";
}

} // namespace couplet::cli
