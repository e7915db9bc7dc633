#pragma once

#include <string>
#include <vector>

namespace couplet {

// A Prometheus histogram: cumulative counts per upper bound (seconds), the sum
// and the count. Not thread-safe; ServingMetrics guards it.
class Histogram {
public:
    explicit Histogram(std::vector<double> upperBounds);

    void observe(double value);
    long long count() const { return m_count; }
    double sum() const { return m_sum; }
    // The text exposition lines: name_bucket{le=...}, name_sum, name_count.
    std::string exposition(const std::string& name, const std::string& help) const;

private:
    std::vector<double> m_bounds;
    std::vector<long long> m_counts; // per bound, not cumulative
    long long m_count = 0;
    double m_sum = 0;
};

} // namespace couplet
