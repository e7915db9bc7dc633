#include "fake_policy.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace couplet::test {

FakePolicy::FakePolicy(std::vector<int> prompt, int maxTokens, int endToken, int throwAt)
    : m_prompt(std::move(prompt)), m_maxTokens(maxTokens), m_endToken(endToken), m_throwAt(throwAt)
{
}

int FakePolicy::choose(std::span<const float> logits)
{
    if (m_finished) throw std::logic_error("choose() after the sequence finished");
    if (static_cast<int>(m_generated.size()) == m_throwAt)
        throw std::runtime_error("policy failed at token " + std::to_string(m_throwAt));
    const auto best = std::max_element(logits.begin(), logits.end());
    const int token = static_cast<int>(best - logits.begin());
    m_generated.push_back(token);
    m_logProb += *best;
    m_text += std::to_string(token) + " ";
    m_finished = static_cast<int>(m_generated.size()) >= m_maxTokens || token == m_endToken;
    return token;
}

std::string FakePolicy::takeTextDelta()
{
    return std::exchange(m_text, {});
}

} // namespace couplet::test
