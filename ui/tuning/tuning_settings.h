#pragma once

namespace couplet {

// The engine knobs the tuning panel edits (see SchedulerSettings).
struct TuningSettings {
    int maxBatch = 32;
    int maxWaitMs = 50;
    int maxStepTokens = 2048;
    int threads = 0;   // CPU threads; 0 = all cores

    bool operator==(const TuningSettings&) const = default;
};

} // namespace couplet
