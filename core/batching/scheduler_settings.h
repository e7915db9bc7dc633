#pragma once

namespace couplet {

// The batching knobs, with the defaults the CLI, the engine and the tuning
// panel all start from.
struct SchedulerSettings {
    int maxBatch = 32;        // slots: sequences decoded together in one step
    int maxWaitMs = 5;        // batching window when the engine was idle (an editor request of 16 candidates waits it whole)
    int maxStepTokens = 2048; // prompt tokens prefilled per step, at most

    bool operator==(const SchedulerSettings&) const = default;
};

// What the desktop app tunes: the scheduler's knobs and the model's CPU threads.
struct EngineSettings : SchedulerSettings {
    int threads = 0;          // intra-op CPU threads; 0 = all cores

    bool operator==(const EngineSettings&) const = default;
};

} // namespace couplet
