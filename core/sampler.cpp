#include "sampler.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace couplet {

double logSumExp(std::span<const float> logits)
{
    const float top = *std::max_element(logits.begin(), logits.end());
    double sum = 0;
    for (float x : logits) sum += std::exp(static_cast<double>(x - top));
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
    m_work.clear();
    for (int id : allowed) {
        const float x = m_scores[static_cast<std::size_t>(id)];
        if (!std::isfinite(x)) throw std::runtime_error("the model produced a non-finite logit");
        m_work.push_back({x, id});
    }

    int chosen = 0;
    if (m_settings.greedy || m_work.size() == 1) {
        chosen = std::max_element(m_work.begin(), m_work.end())->second;
    } else {
        const float t = std::max(1e-3f, m_settings.temperature);
        // Only the top k need ordering: nth_element keeps this O(vocab).
        if (m_settings.topK > 0 && m_work.size() > static_cast<std::size_t>(m_settings.topK)) {
            const auto k = static_cast<std::ptrdiff_t>(m_settings.topK);
            std::nth_element(m_work.begin(), m_work.begin() + k - 1, m_work.end(), std::greater<>());
            m_work.resize(static_cast<std::size_t>(k));
        }
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
