#pragma once

#include "token_policy.h"

#include <memory>

namespace couplet {

// A policy that ends after `maxTokens` generated tokens (OpenAI's max_tokens),
// whether or not the couplet is complete; cutShort() tells which.
class LimitedPolicy : public TokenPolicy {
public:
    LimitedPolicy(std::unique_ptr<TokenPolicy> inner, int maxTokens);

    std::vector<int> promptTokens() const override { return m_inner->promptTokens(); }
    int choose(std::span<const float> logits) override { return m_inner->choose(logits); }
    bool finished() const override;
    const std::vector<int>& generated() const override { return m_inner->generated(); }
    std::string takeTextDelta() override { return m_inner->takeTextDelta(); }
    double logProb() const override { return m_inner->logProb(); }

    bool cutShort() const { return !m_inner->finished() && finished(); }
    const TokenPolicy& inner() const { return *m_inner; }

private:
    std::unique_ptr<TokenPolicy> m_inner;
    int m_maxTokens;
};

} // namespace couplet
