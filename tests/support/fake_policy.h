#pragma once

#include "token_policy.h"

#include <string>
#include <vector>

namespace couplet::test {

// A TokenPolicy for scheduler tests: a given prompt, greedy choice, and an end
// after `maxTokens` tokens or at `endToken`. It can be told to throw when
// choosing token number `throwAt` (0-based). Text deltas are the token ids,
// each followed by a space.
class FakePolicy : public TokenPolicy {
public:
    FakePolicy(std::vector<int> prompt, int maxTokens, int endToken = -1, int throwAt = -1);

    std::vector<int> promptTokens() const override { return m_prompt; }
    int choose(std::span<const float> logits) override;
    bool finished() const override { return m_finished; }
    const std::vector<int>& generated() const override { return m_generated; }
    std::string takeTextDelta() override;
    double logProb() const override { return m_logProb; }

private:
    std::vector<int> m_prompt;
    int m_maxTokens;
    int m_endToken;
    int m_throwAt;
    bool m_finished = false;
    std::vector<int> m_generated;
    std::string m_text;
    double m_logProb = 0;
};

} // namespace couplet::test
