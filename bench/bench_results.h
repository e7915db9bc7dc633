#pragma once

#include <string>
#include <vector>

namespace couplet::bench {

// One batch size of the sweep: a fixed bulk workload run with maxBatch = batchSize.
struct BatchPoint {
    int batchSize = 0;
    int requests = 0;
    int failed = 0;
    int steps = 0;
    double seconds = 0;          // wall time, first step to last
    double cpuSeconds = 0;       // process CPU time over the same span
    double stepMs = 0;           // mean wall time of one scheduler step
    double modelMs = 0;          // mean time inside the decoder per step
    double coupletsPerSecond = 0;
    double tokensPerSecond = 0;  // generated tokens
    double speedup = 0;          // couplets/s over batch 1's (0 when 1 was not run)
    double latencyP50Ms = 0;     // submit -> finished; every request is submitted at the start
    double latencyP95Ms = 0;
    double occupancy = 0;        // mean sequences decoded per step / batchSize
    double kvCacheMiB = 0;       // KV cache the decoder holds for batchSize rows
    double peakRssMiB = 0;       // process peak resident memory so far (VmHWM)
    double gpuMemoryMiB = -1;    // device memory in use (NVML), -1 without a GPU
    double meanContext = 0;      // mean positions attended per generated token
    // Prompt work the model also did: prompts prefilled as rows were admitted
    // (a new row, or a paused one coming back), their tokens, and the mean
    // positions each of those tokens attended.
    long long prefillItems = 0;
    long long prefillTokens = 0;
    double prefillMeanContext = 0;
    // operator new calls in the median step (allocation_counter.h): the whole
    // step (sampling, constraints, scheduler, model) and inside the model.
    double allocationsPerStep = 0;
    double modelAllocationsPerStep = 0;
};

// Static batching (take B requests, decode them padded to B rows until all
// have finished, then the next B) against continuous batching, same requests.
struct BatchingComparison {
    int batchSize = 0;
    int requests = 0;
    double staticSeconds = 0;
    double staticCoupletsPerSecond = 0;
    double staticMeanLatencyMs = 0;
    double staticOccupancy = 0;      // real sequences / padded rows over decode steps
    double continuousSeconds = 0;
    double continuousCoupletsPerSecond = 0;
    double continuousMeanLatencyMs = 0;
    double continuousOccupancy = 0;
    double throughputRatio = 0;      // continuous / static couplets per second
    double latencyRatio = 0;         // static / continuous mean latency
};

// Time to first token of an interactive request, on an idle engine and while
// bulk work fills every slot.
struct FirstTokenPoint {
    int batchSize = 0;
    int samples = 0;
    double idleP50Ms = 0;
    double idleP95Ms = 0;
    double loadedP50Ms = 0;
    double loadedP95Ms = 0;
    double loadedStepMs = 0;     // mean step time under load, for scale
    double ratio = 0;            // loaded p50 / idle p50
    int bulkPreemptions = 0;     // bulk sequences paused to make room
};

// One interactive request (one couplet asked for) on an idle engine, written
// with reranking (`sampled` candidates in one batch, the best kept) and without
// (one sample): the wall time from the request to its answer.
struct RerankPoint {
    int samples = 0;             // requests timed each way
    int sampled = 0;             // candidates sampled when reranking
    double plainP50Ms = 0;
    double plainP95Ms = 0;
    double rerankP50Ms = 0;
    double rerankP95Ms = 0;
    double ratio = 0;            // rerank p50 / plain p50 (issue 8's budget: <= 2x)
};

struct MatmulPoint {
    std::string label;           // "decode qkv", "square" ...
    long long m = 0, k = 0, n = 0;
    double milliseconds = 0;     // per product
    double gflops = 0;
    double cpuGflops = 0;        // per CPU second of this process (all threads)
};

// The machine's matrix-product rate, and what large-batch decoding reaches.
struct RooflinePoint {
    std::string device;
    std::string dtype;
    int threads = 0;
    std::vector<MatmulPoint> matmuls;
    double peakGflops = 0;             // best of the measured products
    double peakCpuGflops = 0;          // the same per CPU second
    double flopsPerToken = 0;          // model FLOPs per generated token at meanContext
    int decodeBatchSize = 0;           // the sweep's largest batch size
    double decodeGflops = 0;           // flopsPerToken x tokens/s over wall time
    double decodeModelGflops = 0;      // the same over the time spent inside the decoder
    double fractionOfPeak = 0;         // decodeGflops / peakGflops
    // All the model's work at that batch size over wall time: the generated
    // tokens above plus the prompt tokens prefilled as rows were admitted
    // (their layers, and the output projection of each prompt's last token).
    double promptTokensPerStep = 0;
    double workGflops = 0;
    double workFractionOfPeak = 0;     // workGflops / peakGflops
    double workCpuGflops = 0;          // the same work per process CPU second
    double workCpuFractionOfPeak = 0;  // workCpuGflops / peakCpuGflops: robust to other load
    double modelFractionOfPeak = 0;
    double decodeCpuGflops = 0;        // flopsPerToken x tokens / process CPU seconds
    double cpuFractionOfPeak = 0;      // decodeCpuGflops / peakCpuGflops: robust to other load
};

struct BenchReport {
    std::string model;           // summary line
    std::string device;
    int threads = 0;
    bool quick = false;
    std::vector<BatchPoint> sweep;
    std::vector<BatchingComparison> comparisons;
    std::vector<FirstTokenPoint> firstToken;
    std::vector<RerankPoint> rerank;
    RooflinePoint roofline;
};

} // namespace couplet::bench
