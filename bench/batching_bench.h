#pragma once

#include "bench_results.h"
#include "timed_decoder.h"

#include "couplet_model.h"
#include "scheduler.h"
#include "system_monitor.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace couplet::bench {

// Runs fixed couplet workloads through the real Scheduler and the model's
// decoder and measures them. One decoder is shared by every experiment, so
// the KV cache is resized rather than reallocated from scratch each time.
class BatchingBench {
public:
    using Log = std::function<void(const std::string&)>;

    explicit BatchingBench(std::shared_ptr<const CoupletModel> model, Log log = {});
    ~BatchingBench();

    // A few requests through a small batch so that the first measurement does
    // not pay for libtorch's first allocations.
    void warmUp();
    // `requests` bulk keyword couplets (7 characters) with maxBatch = batchSize.
    BatchPoint runBatchSize(int batchSize, int requests);
    // The same mixed-length requests, statically and continuously batched.
    BatchingComparison compare(int batchSize, int requests);
    // `samples` interactive requests on an idle engine and under full bulk load.
    FirstTokenPoint firstToken(int batchSize, int samples);
    // `samples` interactive requests for one couplet, each written with and
    // without reranking, alternately (so that drift on a shared machine
    // falls on both).
    RerankPoint rerankLatency(int samples);

private:
    struct RunResult {
        double seconds = 0;
        double cpuSeconds = 0;
        int steps = 0;
        double stepMsSum = 0;
        long long generatedTokens = 0;
        int done = 0;
        int failed = 0;
        std::vector<double> latencyMs;
        std::vector<double> firstTokenMs;
        int preemptions = 0;
        // operator new calls per scheduler step, whole step and inside the model
        std::vector<double> stepAllocations, modelAllocations;
    };

    RunResult runContinuous(const std::vector<GenerationSpec>& specs, int batchSize);
    RunResult runStatic(const std::vector<GenerationSpec>& specs, int batchSize);
    std::vector<SequenceRequest> makeRequests(const std::vector<GenerationSpec>& specs, Priority priority,
                                              RunResult& into) const;
    RunResult firstTokenUnderLoad(int batchSize, int samples, FirstTokenPoint& p);
    double occupancy(int batchSize) const;
    double kvCacheMiB() const;
    void say(const std::string& line) const;

    std::shared_ptr<const CoupletModel> m_model;
    std::unique_ptr<Decoder> m_decoder;
    TimedDecoder m_timed;
    SystemMonitor m_monitor;
    Log m_log;
};

} // namespace couplet::bench
