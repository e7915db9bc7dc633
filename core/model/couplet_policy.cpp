#include "couplet_policy.h"

#include "couplet_model_impl.h"
#include "utf8.h"

namespace couplet {
namespace {

// How much a 横批 character that echoes the theme or the couplet is favoured,
// in logits (e^1.5 = 4.5 times as likely).
constexpr float kThemeBonus = 1.5f;

} // namespace

CoupletPolicy::CoupletPolicy(const CoupletModelImpl& model, std::vector<int> prompt, ConstraintSpec constraints,
                             const SamplingSettings& sampling, std::vector<int> themeTokens)
    : m_model(model),
      m_prompt(std::move(prompt)),
      m_constraints(*model.classes, model.hengpiTrie, std::move(constraints)),
      m_sampler(sampling),
      m_themeTokens(std::move(themeTokens))
{
    if (!m_constraints.upper().empty()) m_pending = model.vocab.decode(m_constraints.upper()) + "\n";
}

int CoupletPolicy::choose(std::span<const float> logits)
{
    const auto segmentBefore = m_constraints.segment();
    if (segmentBefore == Segment::Hengpi && m_bias.empty()) {
        m_bias.assign(static_cast<std::size_t>(m_model.vocab.size()), 0.0f);
        const std::initializer_list<const std::vector<int>*> theme = {&m_themeTokens, &m_constraints.upper(),
                                                                       &m_constraints.lower()};
        for (const auto* list : theme)
            for (int t : *list) m_bias[static_cast<std::size_t>(t)] = kThemeBonus;
    }
    const auto& allowed = m_constraints.allowed();
    double lp = 0;
    const int token = m_sampler.choose(logits, allowed, m_constraints.currentLine(), m_bias, lp);
    m_constraints.advance(token);
    m_generated.push_back(token);
    m_logProb += lp;
    if (m_model.vocab.isCharacter(token)) m_pending += m_model.vocab.piece(token);
    else if (token == tok::kLower || token == tok::kHengpi) m_pending += '\n';
    return token;
}

std::string CoupletPolicy::takeTextDelta()
{
    const auto n = utf8::completePrefix(m_pending);
    std::string out = m_pending.substr(0, n);
    m_pending.erase(0, n);
    return out;
}

Couplet CoupletPolicy::couplet() const
{
    Couplet c;
    c.upper = m_model.vocab.decode(m_constraints.upper());
    c.lower = m_model.vocab.decode(m_constraints.lower());
    c.hengpi = m_model.vocab.decode(m_constraints.hengpi());
    c.score = m_generated.empty() ? 0 : m_logProb / static_cast<double>(m_generated.size());
    c.seed = m_sampler.seed();
    return c;
}

} // namespace couplet
