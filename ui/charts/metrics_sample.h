#pragma once

#include "engine_stats.h"

namespace couplet {

// One point of the live charts, taken about once a second.
struct MetricsSample {
    double timeS = 0;             // seconds since the app started
    EngineStats stats;
};

} // namespace couplet
