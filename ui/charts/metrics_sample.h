#pragma once

namespace couplet {

// One point of the live charts, taken about once a second.
struct MetricsSample {
    double timeS = 0;             // seconds since the app started
    bool hasGpu = false;          // device* fields are GPU, else CPU / process RAM
    double deviceUtilPercent = 0;
    double deviceMemoryMiB = 0;
    double tokensPerSecond = 0;
    double coupletsPerSecond = 0;
    double batchOccupancyPercent = 0;  // running sequences / slots
    int queueDepth = 0;                // waiting sequences
    double p95LatencyMs = 0;           // over the last finished requests
};

} // namespace couplet
