#pragma once

#include <vector>

namespace couplet::bench {

// The p-th percentile (0..100) with linear interpolation; 0 for no values.
double percentile(std::vector<double> values, double p);

} // namespace couplet::bench
