#include "couplet_policy.h"

#include "couplet_model_impl.h"
#include "keyword_plan.h"
#include "utf8.h"

#include <algorithm>

namespace couplet {
namespace {

// How much a 横批 character that echoes the theme or the couplet is favoured,
// in logits (e^1.5 = 4.5 times as likely).
constexpr float kThemeBonus = 1.5f;

std::vector<int> typedTokens(const ConstraintSpec& c, const std::vector<int>& theme)
{
    std::vector<int> typed = theme;
    typed.insert(typed.end(), c.upper.begin(), c.upper.end());
    typed.insert(typed.end(), c.hengpi.begin(), c.hengpi.end());
    for (const auto& k : c.requiredKeywords) typed.insert(typed.end(), k.begin(), k.end());
    for (int t : {c.acrosticUpper, c.acrosticLower})
        if (t >= 0) typed.push_back(t);
    std::sort(typed.begin(), typed.end());
    typed.erase(std::unique(typed.begin(), typed.end()), typed.end());
    return typed;
}

} // namespace

CoupletPolicy::CoupletPolicy(const CoupletModelImpl& model, std::vector<int> prompt, ConstraintSpec constraints,
                             const SamplingSettings& sampling, std::vector<int> themeTokens, DecodingBiases biases)
    : m_model(model),
      m_prompt(std::move(prompt)),
      m_typed(typedTokens(constraints, themeTokens)),
      m_constraints(*model.classes, model.hengpiTrie, std::move(constraints)),
      m_sampler(sampling),
      m_themeTokens(std::move(themeTokens)),
      m_biases(std::move(biases))
{
    if (!model.align) m_biases.alignWeight = m_biases.lengthBias = 0;
    if (!model.bigrams) m_biases.bigramWeight = 0;
    for (const auto& k : m_biases.keywords) m_keywordChars.insert(m_keywordChars.end(), k.begin(), k.end());
    std::sort(m_keywordChars.begin(), m_keywordChars.end());
    m_keywordChars.erase(std::unique(m_keywordChars.begin(), m_keywordChars.end()), m_keywordChars.end());
    // Sized once, so that decoding steps do not allocate.
    m_generated.reserve(static_cast<std::size_t>(model.config.maxLen));
    m_biased.reserve(model.classes->han.size() + 8);
    if (!m_constraints.upper().empty()) m_pending = model.vocab.decode(m_constraints.upper()) + "\n";
}

void CoupletPolicy::keepOut(const std::vector<int>& tokens)
{
    m_keptOut.clear();
    for (int t : tokens)
        if (!std::binary_search(m_typed.begin(), m_typed.end(), t)) m_keptOut.push_back(t);
}

void CoupletPolicy::addBias(int token, float value)
{
    auto& b = m_bias[static_cast<std::size_t>(token)];
    if (b == 0.0f) m_biased.push_back(token);
    b += value;
}

void CoupletPolicy::addKeywordBias()
{
    const auto& line = m_constraints.upper();
    for (const auto& k : m_biases.keywords) {
        if (containsRun(line, k)) continue;
        if (const int q = pendingPrefix(line, k); q > 0) addBias(k[static_cast<std::size_t>(q)], 3 * m_biases.keywordBonus);
        else addBias(k.front(), m_biases.keywordBonus);
    }
}

void CoupletPolicy::addBigramBias()
{
    const auto& line = m_constraints.currentLine();
    if (line.empty()) return;
    const int previous = line.back();
    for (const auto& e : m_model.bigrams->row(previous)) addBias(e.token, m_biases.bigramWeight * e.score);
    // A keyword's characters are words the user asked for: as welcome after
    // any character as a word is.
    for (int t : m_keywordChars) addBias(t, m_biases.bigramWeight * (1.0f - m_model.bigrams->score(previous, t)));
}

std::size_t CoupletPolicy::lineLength() const
{
    switch (m_constraints.segment()) {
    case Segment::Upper: return static_cast<std::size_t>(m_constraints.upperTokens());
    case Segment::Lower: return m_constraints.upper().size();
    default: return 0;
    }
}

void CoupletPolicy::addLengthBias()
{
    const std::size_t n = lineLength(), at = m_constraints.currentLine().size();
    if (n < 3 || at + 2 < n || at >= n) return;
    const float sign = at + 1 == n ? 1.0f : -1.0f;
    for (const auto& [t, c] : m_model.closers) addBias(t, sign * m_biases.lengthBias * c);
}

const std::vector<float>& CoupletPolicy::stepBias()
{
    static const std::vector<float> kNone;
    const Segment segment = m_constraints.segment();
    const bool fusing = segment == Segment::Lower && m_biases.alignWeight > 0;
    const bool shaping = segment != Segment::Hengpi && m_biases.lengthBias > 0;
    const bool preferring = segment == Segment::Upper && m_biases.keywordBonus > 0 && !m_biases.keywords.empty();
    const bool wording = segment != Segment::Hengpi && m_biases.bigramWeight > 0;
    // The 横批 theme stays for all four characters; a 对仗 row changes every step.
    if (segment == Segment::Hengpi && m_biasSegment == Segment::Hengpi) return m_bias;
    if (m_bias.empty()) {
        if (!fusing && !shaping && !preferring && !wording && segment != Segment::Hengpi) return kNone;
        m_bias.assign(static_cast<std::size_t>(m_model.vocab.size()), 0.0f);
    }
    for (int t : m_biased) m_bias[static_cast<std::size_t>(t)] = 0.0f;
    m_biased.clear();
    m_biasSegment = segment;
    if (segment == Segment::Hengpi) {
        const std::initializer_list<const std::vector<int>*> theme = {&m_themeTokens, &m_constraints.upper(),
                                                                       &m_constraints.lower()};
        for (const auto* list : theme)
            for (int t : *list)
                if (m_bias[static_cast<std::size_t>(t)] == 0.0f) addBias(t, kThemeBonus);
        return m_bias;
    }
    if (fusing && m_constraints.lower().size() < m_constraints.upper().size())
        for (const auto& e : m_model.align->row(m_constraints.upper()[m_constraints.lower().size()]))
            addBias(e.token, m_biases.alignWeight * e.score);
    if (shaping) addLengthBias();
    if (preferring) addKeywordBias();
    if (wording) addBigramBias();
    return m_bias;
}

void CoupletPolicy::noteForcedLineEnd(std::span<const float> logits)
{
    const Segment segment = m_constraints.segment();
    const std::size_t n = lineLength(), at = m_constraints.currentLine().size();
    if (segment == Segment::Hengpi || n == 0 || at + 1 != n) return;
    const int end = segment == Segment::Upper ? tok::kLower : tok::kHengpi;
    const auto best = std::max_element(logits.begin(), logits.end()) - logits.begin();
    if (best == end) ++m_forcedLineEnds;
}

void CoupletPolicy::banExampleCopies(std::vector<int>& banned) const
{
    const Segment segment = m_constraints.segment();
    if (segment == Segment::Hengpi) return;
    const auto& line = m_constraints.currentLine();
    const std::size_t n = lineLength();
    const int end = segment == Segment::Upper ? tok::kLower : tok::kHengpi;
    for (const auto& ex : m_biases.exampleLines) {
        if (ex.empty() || (n != 0 && ex.size() != n)) continue;
        if (line.size() + 1 == ex.size() && std::equal(line.begin(), line.end(), ex.begin()))
            banned.push_back(ex.back());  // the last character would complete the copy
        else if (line.size() == ex.size() && line == ex)
            banned.push_back(end);        // a free-length line would end as the copy
    }
}

int CoupletPolicy::choose(std::span<const float> logits)
{
    noteForcedLineEnd(logits);
    const auto& bias = stepBias();
    const auto& allowed = m_constraints.allowed();
    double lp = 0;
    // Buffers kept across steps: a masked step copies the logits, never allocates.
    m_banned.assign(m_keptOut.begin(), m_keptOut.end());
    if (!m_biases.exampleLines.empty()) banExampleCopies(m_banned);
    if (m_biases.wholeKeywords && m_constraints.segment() != Segment::Hengpi)
        for (const auto& k : m_biases.keywords) m_model.wholeKeywords.tornNext(m_constraints.currentLine(), k, m_banned);
    if (!m_banned.empty()) {
        m_masked.assign(logits.begin(), logits.end());
        for (int t : m_banned) m_masked[static_cast<std::size_t>(t)] = -1e9f;
        logits = m_masked;
    }
    const int token = m_sampler.choose(logits, allowed, m_constraints.currentLine(), bias, lp, m_constraints.allowedMask());
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
    c.parts.logProb = c.score;
    c.seed = m_sampler.seed();
    c.forcedLineEnds = m_forcedLineEnds;
    if (m_biases.exampleLines.size() == 2)
        c.example = m_model.vocab.decode(m_biases.exampleLines[0]) + " " + m_model.vocab.decode(m_biases.exampleLines[1]);
    return c;
}

} // namespace couplet
