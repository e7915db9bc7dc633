#pragma once

#include <vector>

namespace couplet {

// The p-th percentile (p in 0..100) of an unsorted sample, interpolating
// linearly between the two nearest ranks (as numpy's default does); 0 for an
// empty sample. The one definition behind every p50/p95 the project shows:
// the charts, the auto-tuner and the benchmarks.
double percentile(std::vector<double> values, double p);

} // namespace couplet
