#pragma once

#include "generation_spec.h"
#include "token_policy.h"

#include <functional>
#include <memory>

namespace couplet {

// The couplet a sequence has written so far, kept by the engine while the
// scheduler owns the policy (and may destroy it before the engine reads the
// final text).
struct CoupletSnapshot {
    Couplet couplet;
    int tokens = 0;
};

// Forwards to the real policy and refreshes a shared snapshot after every
// chosen token.
class TrackedPolicy : public TokenPolicy {
public:
    using Reader = std::function<Couplet(const TokenPolicy&)>;

    TrackedPolicy(std::unique_ptr<TokenPolicy> inner, Reader reader,
                  std::shared_ptr<CoupletSnapshot> snapshot);

    std::vector<int> promptTokens() const override { return m_inner->promptTokens(); }
    int choose(std::span<const float> logits) override;
    bool finished() const override { return m_inner->finished(); }
    const std::vector<int>& generated() const override { return m_inner->generated(); }
    std::string takeTextDelta() override { return m_inner->takeTextDelta(); }
    double logProb() const override { return m_inner->logProb(); }

private:
    std::unique_ptr<TokenPolicy> m_inner;
    Reader m_reader;
    std::shared_ptr<CoupletSnapshot> m_snapshot;
};

} // namespace couplet
