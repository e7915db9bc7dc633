#include "limited_policy.h"

namespace couplet {

LimitedPolicy::LimitedPolicy(std::unique_ptr<TokenPolicy> inner, int maxTokens)
    : m_inner(std::move(inner)), m_maxTokens(maxTokens)
{
}

bool LimitedPolicy::finished() const
{
    return m_inner->finished() || static_cast<int>(m_inner->generated().size()) >= m_maxTokens;
}

} // namespace couplet
