#include "percentile.h"

#include <algorithm>
#include <cmath>

namespace couplet {

double percentile(std::vector<double> values, double p)
{
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(rank));
    const auto above = std::min(values.size() - 1, below + 1);
    return values[below] + (rank - static_cast<double>(below)) * (values[above] - values[below]);
}

} // namespace couplet
