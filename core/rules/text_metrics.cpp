#include "text_metrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace couplet {
namespace {

std::map<std::u32string, int> ngrams(const std::u32string& s, std::size_t n)
{
    std::map<std::u32string, int> out;
    for (std::size_t i = 0; i + n <= s.size(); ++i) ++out[s.substr(i, n)];
    return out;
}

} // namespace

void Bleu2::add(const std::u32string& generated, const std::u32string& reference)
{
    for (std::size_t n = 1; n <= 2; ++n) {
        const auto got = ngrams(generated, n), want = ngrams(reference, n);
        for (const auto& [g, count] : got) {
            const auto it = want.find(g);
            m_matches[n - 1] += std::min(count, it == want.end() ? 0 : it->second);
            m_totals[n - 1] += count;
        }
    }
    m_generatedLength += static_cast<double>(generated.size());
    m_referenceLength += static_cast<double>(reference.size());
}

double Bleu2::score() const
{
    if (m_totals[0] == 0 || m_matches[0] == 0 || m_matches[1] == 0 || m_totals[1] == 0) return 0;
    const double logPrecision = 0.5 * std::log(m_matches[0] / m_totals[0]) + 0.5 * std::log(m_matches[1] / m_totals[1]);
    const double brevity = m_generatedLength >= m_referenceLength ? 0 : 1 - m_referenceLength / m_generatedLength;
    return std::exp(logPrecision + brevity);
}

double distinct2(const std::vector<std::u32string>& texts)
{
    std::set<std::u32string> distinct;
    std::size_t total = 0;
    for (const auto& t : texts)
        for (std::size_t i = 0; i + 2 <= t.size(); ++i) {
            distinct.insert(t.substr(i, 2));
            ++total;
        }
    return total == 0 ? 1.0 : static_cast<double>(distinct.size()) / static_cast<double>(total);
}

} // namespace couplet
