#pragma once

#include <QList>

namespace couplet {

// One batch size measured by the auto-tune sweep.
struct AutoTunePoint {
    int batch = 0;
    double tokensPerSecond = 0;
    double coupletsPerSecond = 0;
    double meanLatencyMs = 0;
    double p95LatencyMs = 0;
};

// The knee of a sweep: the smallest batch whose throughput is within
// `tolerance` (a fraction) of the best one; 0 for an empty sweep. Larger
// batches past the knee add latency for little throughput.
int proposeKnee(const QList<AutoTunePoint>& points, double tolerance = 0.05);

} // namespace couplet
