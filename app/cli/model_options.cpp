#include "model_options.h"

namespace couplet::cli {

std::shared_ptr<const CoupletModel> loadModel(Args& args)
{
    DeviceOptions options;
    options.device = args.value("device", "auto");
    options.threads = args.integer("threads", 0);
    options.halfPrecision = !args.flag("fp32");
    options.precision = args.value("precision", "auto");
    if (args.flag("fp32") && !args.has("precision")) options.precision = "fp32";
    const std::filesystem::path dir = args.value("model", CoupletModel::defaultModelDir().string());
    return CoupletModel::load(dir, options);
}

const char* modelOptionsHelp()
{
    return "model options:\n"
           "  --model PATH       model folder (default: the shipped model)\n"
           "  --device D         cpu, cuda or auto (default auto)\n"
           "  --threads N        CPU threads (default: all cores)\n"
           "  --precision P      CPU: auto (int8 where the CPU has avx512_vnni or AVX2, else bf16\n"
           "                     where it has avx512_bf16, else fp32),\n"
           "                     fp32, bf16, int8 (native kernels; int8 quantises weights per column\n"
           "                     and activations per row) or libtorch (libtorch's ops, fp32)\n"
           "  --fp32             full precision (GPU: instead of fp16; CPU: --precision fp32)\n";
}

} // namespace couplet::cli
