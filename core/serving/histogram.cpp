#include "histogram.h"

#include <algorithm>
#include <sstream>

namespace couplet {

Histogram::Histogram(std::vector<double> upperBounds) : m_bounds(std::move(upperBounds)), m_counts(m_bounds.size(), 0)
{
    std::sort(m_bounds.begin(), m_bounds.end());
}

void Histogram::observe(double value)
{
    const auto it = std::lower_bound(m_bounds.begin(), m_bounds.end(), value);
    if (it != m_bounds.end()) ++m_counts[static_cast<std::size_t>(it - m_bounds.begin())];
    ++m_count;
    m_sum += value;
}

std::string Histogram::exposition(const std::string& name, const std::string& help) const
{
    std::ostringstream out;
    out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << " histogram\n";
    long long cumulative = 0;
    for (std::size_t i = 0; i < m_bounds.size(); ++i) {
        cumulative += m_counts[i];
        out << name << "_bucket{le=\"" << m_bounds[i] << "\"} " << cumulative << '\n';
    }
    out << name << "_bucket{le=\"+Inf\"} " << m_count << '\n';
    out << name << "_sum " << m_sum << '\n' << name << "_count " << m_count << '\n';
    return out.str();
}

} // namespace couplet
