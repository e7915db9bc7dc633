#pragma once

#include <vector>

namespace couplet::bench {

// The p-th percentile (0..100) with linear interpolation; 0 for no values.
double percentile(std::vector<double> values, double p);

// CPU time this process has used, all threads, in seconds. On a machine shared
// with other work it grows with the work done rather than with waiting.
double processCpuSeconds();

} // namespace couplet::bench
