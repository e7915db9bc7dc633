#pragma once

#include "engine_backend.h"
#include "engine_types.h"

#include "scheduler.h"

namespace couplet {

// Measures one batch size on the loaded model: runs a fixed set of keyword
// prompts through `scheduler` with maxBatch = batch and reports throughput
// and latency. The scheduler must be idle; its settings are left changed
// (the caller restores them).
class AutoTuner {
public:
    static constexpr std::uint64_t kJobId = std::uint64_t(1) << 62;
    static constexpr double kMaxSecondsPerBatch = 20;

    AutoTuner(Scheduler& scheduler, const EngineBackend& backend, int maxStepTokens);
    AutoTuneResult measure(int batch);

private:
    Scheduler& m_scheduler;
    const EngineBackend& m_backend;
    int m_maxStepTokens;
};

} // namespace couplet
