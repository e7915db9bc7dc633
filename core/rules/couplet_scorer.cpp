#include "couplet_scorer.h"

#include "align_table.h"
#include "couplet_judge.h"
#include "theme_lexicon.h"
#include "tone_table.h"
#include "utf8.h"
#include "vocab.h"
#include "word_table.h"
#include "word_terms.h"

#include <algorithm>
#include <set>

namespace couplet {
namespace {

// 1 when both tones are known and differ, 0 when they are the same, -1 when unknown.
int opposite(Tone a, Tone b)
{
    if (a == Tone::Unknown || b == Tone::Unknown) return -1;
    return a != b ? 1 : 0;
}

bool insideKeyword(const std::u32string& bigram, const std::vector<std::u32string>& keywords)
{
    return std::any_of(keywords.begin(), keywords.end(),
                       [&](const std::u32string& k) { return k.find(bigram) != std::u32string::npos; });
}

// Mean share of the other candidates that hold each of this one's phrases.
double sharedPhraseShare(std::size_t self, const std::vector<std::set<std::u32string>>& phrases)
{
    if (phrases.size() < 2 || phrases[self].empty()) return 0;
    double sum = 0;
    for (const auto& g : phrases[self]) {
        std::size_t holders = 0;
        for (std::size_t j = 0; j < phrases.size(); ++j) holders += j != self && phrases[j].count(g) != 0;
        sum += static_cast<double>(holders) / static_cast<double>(phrases.size() - 1);
    }
    return sum / static_cast<double>(phrases[self].size());
}

// A penalty of `weight` per unit of `amount`: negative, or 0 (not -0, which
// --json and the score line would print as "-0") when there is none.
double penalty(double weight, double amount)
{
    return amount > 0 ? -weight * amount : 0.0;
}

} // namespace

std::vector<std::u32string> coupletBigrams(const std::u32string& upper, const std::u32string& lower)
{
    std::set<std::u32string> out;
    for (const auto* line : {&upper, &lower})
        for (std::size_t i = 0; i + 1 < line->size(); ++i)
            if (utf8::isHan((*line)[i]) && utf8::isHan((*line)[i + 1])) out.insert(line->substr(i, 2));
    return {out.begin(), out.end()};
}

CoupletScorer::CoupletScorer(const Vocab& vocab, const ToneTable& tones, const AlignTable* align, ScoreWeights weights,
                             PromptLexicons lexicons)
    : m_vocab(vocab), m_tones(tones), m_align(align), m_weights(weights), m_lexicons(std::move(lexicons))
{
}

double CoupletScorer::toneScore(const std::u32string& upper, const std::u32string& lower) const
{
    int kept = 0, checked = 0;
    auto rule = [&](int result) {
        if (result < 0) return;
        kept += result;
        ++checked;
    };
    const std::size_t n = std::min(upper.size(), lower.size());
    for (std::size_t i = 1; i + 1 < n; i += 2) {
        rule(opposite(m_tones.tone(upper[i]), m_tones.tone(lower[i])));
        if (i + 3 < n) {
            rule(opposite(m_tones.tone(upper[i]), m_tones.tone(upper[i + 2])));
            rule(opposite(m_tones.tone(lower[i]), m_tones.tone(lower[i + 2])));
        }
    }
    if (n > 0) {
        const Tone up = m_tones.tone(upper[n - 1]), down = m_tones.tone(lower[n - 1]);
        if (up != Tone::Unknown) rule(up == Tone::Oblique ? 1 : 0);
        if (down != Tone::Unknown) rule(down == Tone::Level ? 1 : 0);
    }
    return checked == 0 ? 0.0 : static_cast<double>(kept) / checked;
}

int CoupletScorer::endsAgainstTheRule(const std::u32string& upper, const std::u32string& lower, bool givenUpper) const
{
    if (upper.empty() || lower.empty()) return 0;
    const Tone up = m_tones.tone(upper.back()), down = m_tones.tone(lower.back());
    int wrong = up == Tone::Level ? 1 : 0;
    if (!(givenUpper && up == Tone::Level) && down == Tone::Oblique) ++wrong;
    return wrong;
}

double CoupletScorer::keywordCoverage(const std::u32string& upper, const std::u32string& lower,
                                      const std::vector<std::u32string>& keywords)
{
    if (keywords.empty()) return 0;
    const auto present = std::count_if(keywords.begin(), keywords.end(), [&](const std::u32string& k) {
        return upper.find(k) != std::u32string::npos || lower.find(k) != std::u32string::npos;
    });
    return static_cast<double>(present) / static_cast<double>(keywords.size());
}

int CoupletScorer::repeatedCharacters(const std::u32string& line, const std::u32string& other)
{
    int repeats = 0;
    for (std::size_t i = 1; i < line.size(); ++i) {
        if (isCoupletPunctuation(line[i]) || line.find(line[i]) >= i) continue;
        const bool mirroredDiezi = line[i - 1] == line[i] && i < other.size() && other[i - 1] == other[i];
        if (!mirroredDiezi) ++repeats;
    }
    return repeats;
}

ScoreParts CoupletScorer::partsOf(const Couplet& c, const std::vector<std::u32string>& keywords) const
{
    const auto up = utf8::decode(c.upper), down = utf8::decode(c.lower);
    ScoreParts p;
    p.logProb = m_weights.likelihood * c.parts.logProb;
    if (m_align) p.duizhang = m_weights.duizhang * m_align->coupletScore(m_vocab.encode(c.upper), m_vocab.encode(c.lower));
    // A blind judge prints no 上联 that ends on 平: among 16 candidates, one that keeps the rule wins.
    p.tone = m_weights.tone * toneScore(up, down)
        - m_weights.lineEnds * endsAgainstTheRule(up, down, m_lexicons.givenUpper);
    p.keywords = m_weights.keywords * keywordCoverage(up, down, keywords);
    p.repetition = penalty(m_weights.repetition, repeatedCharacters(up, down) + repeatedCharacters(down, up));
    p.backward = m_weights.backward * c.backwardLogProb;
    addLexiconParts(p, up, down, keywords);
    return p;
}

void CoupletScorer::addLexiconParts(ScoreParts& p, const std::u32string& up, const std::u32string& down,
                                    const std::vector<std::u32string>& keywords) const
{
    const auto& lex = m_lexicons;
    // The model's own text: both lines, or only the 下联 that answers a given 上联.
    const std::u32string written = lex.givenUpper ? down : up + U"\n" + down;
    p.melancholy = penalty(m_weights.melancholy, melancholyCharacters(written, lex.prompt));
    if (lex.words != nullptr && !lex.words->empty()) {
        const WordTerms t = wordTermsOf(*lex.words, up, down, keywords);
        p.looseWords = penalty(m_weights.looseCharacter, t.looseCharacters);
        p.tornKeywords = penalty(m_weights.tornKeyword, t.tornKeywords);
        p.wordDuizhang = m_weights.wordDuizhang * t.matchedWords;
    }
    if (lex.judge != nullptr && !lex.judge->empty() && m_weights.judge != 0)
        p.judge = m_weights.judge * lex.judge->score(up, down, JudgeTables{&m_vocab, &m_tones, m_align, lex.words});
    if (lex.themes != nullptr && !lex.themes->empty())
        p.theme = m_weights.theme * std::min(kMaxThemeWords, lex.themes->themeWords(lex.themeNames, written, lex.prompt));
}

void CoupletScorer::rerank(std::vector<Couplet>& candidates, const std::vector<std::u32string>& keywords) const
{
    // Keywords first: the share present, not its weighted part, so that a
    // weight of 0 (or any) still keeps a couplet that leaves one out below.
    std::vector<std::set<std::u32string>> phrases;
    std::vector<std::pair<double, std::size_t>> order; // (keyword coverage, candidate)
    for (const auto& c : candidates) {
        const auto up = utf8::decode(c.upper), down = utf8::decode(c.lower);
        std::set<std::u32string> own;
        for (auto& g : coupletBigrams(up, down))
            if (!insideKeyword(g, keywords)) own.insert(std::move(g));
        phrases.push_back(std::move(own));
        order.emplace_back(keywordCoverage(up, down, keywords), order.size());
    }
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        auto& c = candidates[i];
        c.parts = partsOf(c, keywords);
        c.parts.cliche = penalty(m_weights.cliche, sharedPhraseShare(i, phrases));
        c.score = c.parts.total();
    }
    std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first > b.first;
        return candidates[a.second].score > candidates[b.second].score;
    });
    std::vector<Couplet> sorted;
    sorted.reserve(candidates.size());
    for (const auto& [coverage, i] : order) sorted.push_back(std::move(candidates[i]));
    candidates = std::move(sorted);
}

void CoupletScorer::keepBest(std::vector<Couplet>& ranked, std::size_t n)
{
    std::vector<char> keep(ranked.size(), 0);
    std::set<std::string> seen;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < ranked.size() && kept < n; ++i) {
        keep[i] = seen.insert(ranked[i].upper + '\n' + ranked[i].lower).second;
        kept += keep[i];
    }
    for (std::size_t i = 0; i < ranked.size() && kept < n; ++i) {
        kept += !keep[i];
        keep[i] = 1;
    }
    std::vector<Couplet> out;
    for (std::size_t i = 0; i < ranked.size(); ++i)
        if (keep[i]) out.push_back(std::move(ranked[i]));
    ranked = std::move(out);
}

} // namespace couplet
