#include "roofline.h"

#include "couplet_model.h"
#include "couplet_model_impl.h"
#include "linear_kernels.h"
#include "packed_linear.h"


#include <torch/cuda.h>
#include <torch/torch.h>

#include "stats.h"

#include <chrono>
#include <functional>

namespace couplet::bench {
namespace {

void synchronize(const torch::Device& device)
{
    if (device.is_cuda()) torch::cuda::synchronize();
}

// Runs `product` (an m x k by k x n product) once to warm up, then until
// `minSeconds` have passed; `sync` waits for the device (every 4th run).
MatmulPoint timeProduct(const std::string& label, long long m, long long k, long long n, double minSeconds,
                        const std::function<void()>& product, const std::function<void()>& sync)
{
    product();
    sync();
    int reps = 0;
    const double cpuStart = processCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    double seconds = 0;
    while (reps < 3 || seconds < minSeconds) {
        product();
        ++reps;
        if (reps % 4 == 0 || reps < 4) sync();
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    sync();
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpuSeconds = processCpuSeconds() - cpuStart;
    MatmulPoint p;
    p.label = label;
    p.m = m;
    p.k = k;
    p.n = n;
    p.milliseconds = seconds * 1000.0 / reps;
    p.gflops = 2.0 * double(m) * double(k) * double(n) * reps / seconds / 1e9;
    p.cpuGflops = cpuSeconds > 0 ? p.gflops * seconds / cpuSeconds : 0;
    return p;
}

// torch::matmul in the model's dtype on its device.
MatmulPoint timeMatmul(const std::string& label, long long m, long long k, long long n, const torch::TensorOptions& opts,
                       double minSeconds)
{
    torch::NoGradGuard guard;
    auto a = torch::randn({m, k}, opts);
    auto b = torch::randn({k, n}, opts);
    torch::Tensor c;
    return timeProduct(label, m, k, n, minSeconds, [&] { c = torch::matmul(a, b); },
                       [&] { synchronize(opts.device()); });
}

// The native decoder's kernels (weights packed at `precision`, split over
// the threads as the decoder does: linearProduct).
MatmulPoint timeNative(const std::string& label, long long m, long long k, long long n, NativePrecision precision,
                       double minSeconds)
{
    const auto w = torch::randn({n, k}).contiguous();
    const auto x = torch::randn({m, k}).contiguous();
    const PackedLinear packed(w.data_ptr<float>(), nullptr, static_cast<int>(k), static_cast<int>(n), precision);
    const CpuKernels cpu = CpuKernels::detect();
    std::vector<float> y(static_cast<std::size_t>(m * n));
    ActivationBuffers buffers;
    buffers.reserve(static_cast<int>(m), static_cast<int>(k));
    const auto product = [&] {
        linearProduct(cpu, packed, x.data_ptr<float>(), static_cast<int>(m), y.data(), static_cast<int>(n), false, buffers);
    };
    return timeProduct(label, m, k, n, minSeconds, product, [] {});
}

std::string dtypeName(torch::ScalarType t)
{
    return t == torch::kFloat16 ? "fp16" : t == torch::kBFloat16 ? "bf16" : t == torch::kFloat32 ? "fp32" : "other";
}

} // namespace

RooflinePoint Roofline::measure(const CoupletModel& model, int decodeRows, int square, double minSeconds)
{
    const auto& impl = implOf(model);
    const auto& c = impl.config;
    const auto opts = torch::TensorOptions().dtype(impl.dtype).device(impl.device);
    RooflinePoint r;
    r.device = model.deviceName();
    r.dtype = dtypeName(impl.dtype);
    r.threads = torch::get_num_threads();
    const long long rows = decodeRows;
    r.matmuls.push_back(timeMatmul("decode qkv", rows, c.dim, 3LL * c.dim, opts, minSeconds));
    r.matmuls.push_back(timeMatmul("decode mlp up", rows, c.dim, c.mlpHidden, opts, minSeconds));
    r.matmuls.push_back(timeMatmul("decode mlp down", rows, c.mlpHidden, c.dim, opts, minSeconds));
    r.matmuls.push_back(timeMatmul("decode output", rows, c.dim, c.vocabSize, opts, minSeconds));
    r.matmuls.push_back(timeMatmul("square", square, square, square, opts, minSeconds));
    if (impl.native) {
        // The decoder runs its own kernels: their rate at its precision is the
        // peak it is measured against; libtorch's rows above stay for reference.
        for (auto& m : r.matmuls) m.label = "libtorch " + m.label;
        const NativePrecision p = *impl.native;
        const std::string name = std::string(nameOf(p)) + " ";
        r.dtype = std::string(nameOf(p)) + " native kernels (libtorch rows: " + r.dtype + ")";
        const std::size_t first = r.matmuls.size();
        r.matmuls.push_back(timeNative(name + "qkv", rows, c.dim, 3LL * c.dim, p, minSeconds));
        r.matmuls.push_back(timeNative(name + "mlp up", rows, c.dim, c.mlpHidden, p, minSeconds));
        r.matmuls.push_back(timeNative(name + "mlp down", rows, c.mlpHidden, c.dim, p, minSeconds));
        r.matmuls.push_back(timeNative(name + "output", rows, c.dim, c.vocabSize, p, minSeconds));
        r.matmuls.push_back(timeNative(name + "square", square, square, square, p, minSeconds));
        for (std::size_t i = first; i < r.matmuls.size(); ++i) {
            r.peakGflops = std::max(r.peakGflops, r.matmuls[i].gflops);
            r.peakCpuGflops = std::max(r.peakCpuGflops, r.matmuls[i].cpuGflops);
        }
        return r;
    }
    for (const auto& m : r.matmuls) {
        r.peakGflops = std::max(r.peakGflops, m.gflops);
        r.peakCpuGflops = std::max(r.peakCpuGflops, m.cpuGflops);
    }
    return r;
}

double Roofline::flopsPerToken(const ModelConfig& c, double context)
{
    return flopsPerPromptToken(c, context) + 2.0 * c.dim * c.vocabSize;
}

double Roofline::flopsPerPromptToken(const ModelConfig& c, double context)
{
    const double d = c.dim, h = c.mlpHidden;
    const double perLayer = d * 3 * d + 3 * d  // qkv
        + d * d + d                            // attention output
        + d * h + h + h * d + d                // MLP
        + 4 * d;                               // two layer norms
    const double nonEmbedding = c.layers * perLayer + 2 * d;
    return 2 * nonEmbedding + 4.0 * c.layers * d * context;
}

void Roofline::rateDecoding(RooflinePoint& r, const CoupletModel& model, const BatchPoint& point)
{
    const ModelConfig& config = implOf(model).config;
    r.decodeBatchSize = point.batchSize;
    r.flopsPerToken = flopsPerToken(config, point.meanContext);
    r.decodeGflops = r.flopsPerToken * point.tokensPerSecond / 1e9;
    const double tokens = point.tokensPerSecond * point.seconds;
    const double modelSeconds = point.modelMs * point.steps / 1000.0;
    r.decodeModelGflops = modelSeconds > 0 ? r.flopsPerToken * tokens / modelSeconds / 1e9 : 0;
    r.fractionOfPeak = r.peakGflops > 0 ? r.decodeGflops / r.peakGflops : 0;
    r.decodeCpuGflops = point.cpuSeconds > 0 ? r.flopsPerToken * tokens / point.cpuSeconds / 1e9 : 0;
    r.cpuFractionOfPeak = r.peakCpuGflops > 0 ? r.decodeCpuGflops / r.peakCpuGflops : 0;
    r.modelFractionOfPeak = r.peakGflops > 0 ? r.decodeModelGflops / r.peakGflops : 0;
    const double promptFlops = static_cast<double>(point.prefillTokens) * flopsPerPromptToken(config, point.prefillMeanContext)
        + static_cast<double>(point.prefillItems) * 2.0 * config.dim * config.vocabSize;
    r.promptTokensPerStep = point.steps > 0 ? static_cast<double>(point.prefillTokens) / point.steps : 0;
    const double workFlops = r.flopsPerToken * tokens + promptFlops;
    r.workGflops = point.seconds > 0 ? workFlops / point.seconds / 1e9 : 0;
    r.workFractionOfPeak = r.peakGflops > 0 ? r.workGflops / r.peakGflops : 0;
    r.workCpuGflops = point.cpuSeconds > 0 ? workFlops / point.cpuSeconds / 1e9 : 0;
    r.workCpuFractionOfPeak = r.peakCpuGflops > 0 ? r.workCpuGflops / r.peakCpuGflops : 0;
}

} // namespace couplet::bench
