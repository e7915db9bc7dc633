#pragma once

namespace couplet {

// One batch size measured by the auto-tune sweep: the engine measures it,
// the tuning panel draws it and proposes the knee.
struct AutoTuneResult {
    int batch = 0;
    double tokensPerSecond = 0;
    double coupletsPerSecond = 0;
    double meanLatencyMs = 0;
    double p95LatencyMs = 0;
};

} // namespace couplet
