#pragma once

#include "loaded_model.h"
#include "engine_types.h"

#include "scheduler.h"

#include <optional>
#include <vector>

namespace couplet {

// Measures one batch size after another on the loaded model: a fixed set of
// keyword prompts goes into `scheduler` with maxBatch = the batch size, and
// the engine steps the scheduler as usual, one step per event-loop turn, so
// cancels and settings still arrive between steps. The scheduler must be
// idle at start(); its settings are left changed (the caller restores them).
class AutoTuner {
public:
    static constexpr std::uint64_t kJobId = std::uint64_t(1) << 62;
    static constexpr double kMaxSecondsPerBatch = 20;

    AutoTuner(Scheduler& scheduler, const CoupletGenerator& generator, int maxStepTokens, QList<int> batchSizes);
    // Cancels the sequences of a measurement in progress.
    ~AutoTuner();
    AutoTuner(const AutoTuner&) = delete;
    AutoTuner& operator=(const AutoTuner&) = delete;

    // Submits the next batch size's prompts; false when none is left.
    bool startNext();
    // After each scheduler step: cuts a batch size short after
    // kMaxSecondsPerBatch, and returns its result once all its sequences ended.
    std::optional<AutoTuneResult> poll();

private:
    Scheduler& m_scheduler;
    const CoupletGenerator& m_generator;
    int m_maxStepTokens;
    QList<int> m_batchSizes;
    int m_batch = 0;
    int m_outstanding = 0;
    int m_tokens = 0;
    std::vector<double> m_latencies;
    Clock::time_point m_start;
};

} // namespace couplet
