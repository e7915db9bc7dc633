#include "tracked_policy.h"

namespace couplet {

TrackedPolicy::TrackedPolicy(std::unique_ptr<TokenPolicy> inner, Reader reader,
                             std::shared_ptr<CoupletSnapshot> snapshot)
    : m_inner(std::move(inner)), m_reader(std::move(reader)), m_snapshot(std::move(snapshot))
{
}

int TrackedPolicy::choose(std::span<const float> logits)
{
    const int token = m_inner->choose(logits);
    m_snapshot->couplet = m_reader(*m_inner);
    m_snapshot->tokens = int(m_inner->generated().size());
    return token;
}

} // namespace couplet
