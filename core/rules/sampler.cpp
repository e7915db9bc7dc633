#include "sampler.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace couplet {

namespace {

// e^x for x <= 0, within about one float ulp (Cephes' expf polynomial).
// Branch-free and inline so that the loop over the vocabulary vectorises:
// std::exp is a scalar library call, and at 7,000 logits per token it cost
// as much as the rest of sampling together.
inline float expNonPositive(float x)
{
    constexpr float kLog2e = 1.44269504088896341f;
    constexpr float kLn2Hi = 0.693359375f;
    constexpr float kLn2Lo = -2.12194440e-4f;
    // x = max(x, -87) keeps 2^n a normal float (e^-87 is far below what the
    // sum resolves). Done on the bit patterns: for x <= 0 (and -inf) a larger
    // magnitude is a larger unsigned pattern, and an integer min vectorises
    // where a float comparison (which may trap) does not.
    x = std::bit_cast<float>(std::min(std::bit_cast<std::uint32_t>(x), std::bit_cast<std::uint32_t>(-87.0f)));
    const int n = static_cast<int>(x * kLog2e - 0.5f); // round to nearest: x * log2e <= 0
    const float r = x - static_cast<float>(n) * kLn2Hi - static_cast<float>(n) * kLn2Lo;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const float y = p * r * r + r + 1.0f;
    return y * std::bit_cast<float>((n + 127) << 23);
}

using Scored = std::pair<float, int>; // (score, token)

float checkedScore(const std::vector<float>& scores, int id)
{
    const float x = scores[static_cast<std::size_t>(id)];
    if (!std::isfinite(x)) throw std::runtime_error("the model produced a non-finite logit");
    return x;
}

void collectAll(const std::vector<float>& scores, const std::vector<int>& allowed, std::vector<Scored>& out)
{
    out.clear();
    for (int id : allowed) out.push_back({checkedScore(scores, id), id});
}

// The k best (score, token) pairs of `allowed`, unordered. Pairs are distinct,
// so this is exactly the set nth_element would select; a min-heap of the best
// k so far finds it in one pass where most tokens are rejected by a single
// comparison, instead of partitioning all 7,000 candidates every token.
void collectTopK(const std::vector<float>& scores, const std::vector<int>& allowed, std::size_t k,
                 std::vector<Scored>& out)
{
    out.clear();
    Scored worst{0.0f, 0}; // the heap's front: the k-th best so far, kept in registers
    for (int id : allowed) {
        const float x = checkedScore(scores, id);
        if (out.size() < k) {
            out.push_back({x, id});
            if (out.size() < k) continue;
            std::make_heap(out.begin(), out.end(), std::greater<>());
        } else if (x > worst.first || (x == worst.first && id > worst.second)) {
            std::pop_heap(out.begin(), out.end(), std::greater<>());
            out.back() = {x, id};
            std::push_heap(out.begin(), out.end(), std::greater<>());
        } else {
            continue;
        }
        worst = out.front();
    }
}

} // namespace

double logSumExp(std::span<const float> logits)
{
    constexpr std::size_t kLanes = 8;
    const float top = *std::max_element(logits.begin(), logits.end());
    // Independent partial sums: a single running sum is a serial dependency
    // the compiler may not reorder, so it could not vectorise the loop.
    double lanes[kLanes] = {};
    std::size_t i = 0;
    for (; i + kLanes <= logits.size(); i += kLanes)
        for (std::size_t j = 0; j < kLanes; ++j) lanes[j] += static_cast<double>(expNonPositive(logits[i + j] - top));
    double sum = 0;
    for (; i < logits.size(); ++i) sum += static_cast<double>(expNonPositive(logits[i] - top));
    for (double lane : lanes) sum += lane;
    return top + std::log(sum);
}

Sampler::Sampler(const SamplingSettings& settings)
    : m_settings(settings), m_seed(settings.seed != 0 ? settings.seed : std::random_device{}()), m_rng(m_seed)
{
}

int Sampler::choose(std::span<const float> logits, const std::vector<int>& allowed, const std::vector<int>& penalised,
                    double& logProb)
{
    static const std::vector<float> kNoBias;
    return choose(logits, allowed, penalised, kNoBias, logProb);
}

int Sampler::choose(std::span<const float> logits, const std::vector<int>& allowed, const std::vector<int>& penalised,
                    const std::vector<float>& bias, double& logProb)
{
    if (allowed.empty()) throw std::logic_error("no token is allowed here");
    // Work on a copy: bias and repetition penalty change scores, not the
    // model's probabilities reported in logProb.
    m_scores.assign(logits.begin(), logits.end());
    if (!bias.empty())
        for (std::size_t i = 0; i < m_scores.size() && i < bias.size(); ++i) m_scores[i] += bias[i];
    const float penalty = m_settings.repetitionPenalty;
    if (penalty > 0 && penalty != 1.0f)
        for (int id : penalised) {
            float& x = m_scores[static_cast<std::size_t>(id)];
            x = x > 0 ? x / penalty : x * penalty;
        }
    const bool sample = !m_settings.greedy && allowed.size() > 1;
    const auto k = static_cast<std::size_t>(std::max(0, m_settings.topK));
    if (sample && k > 0 && allowed.size() > k) collectTopK(m_scores, allowed, k, m_work);
    else collectAll(m_scores, allowed, m_work);

    int chosen = 0;
    if (!sample) {
        chosen = std::max_element(m_work.begin(), m_work.end())->second;
    } else {
        const float t = std::max(1e-3f, m_settings.temperature);
        std::sort(m_work.begin(), m_work.end(), std::greater<>());
        std::vector<double> p(m_work.size());
        double sum = 0;
        for (std::size_t i = 0; i < m_work.size(); ++i) sum += p[i] = std::exp((m_work[i].first - m_work[0].first) / t);
        // Keep the smallest prefix whose mass reaches topP.
        std::size_t keep = p.size();
        if (m_settings.topP < 1.0f) {
            double acc = 0;
            for (std::size_t i = 0; i < p.size(); ++i)
                if ((acc += p[i] / sum) >= m_settings.topP) {
                    keep = i + 1;
                    break;
                }
        }
        std::discrete_distribution<std::size_t> pick(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(keep));
        chosen = m_work[pick(m_rng)].second;
    }
    logProb = logits[chosen] - logSumExp(logits);
    return chosen;
}

} // namespace couplet
