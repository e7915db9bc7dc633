#include "couplet_constraints.h"

#include "omens.h"
#include "tone_table.h"
#include "vocab.h"
#include "zodiac.h"

#include <algorithm>
#include <stdexcept>

namespace couplet {

namespace {

// Whether the line's last character stood earlier with another after it.
bool lastCharacterRecurs(const std::vector<int>& line)
{
    return line.size() >= 2 && std::find(line.begin(), line.end() - 1, line.back()) != line.end() - 1;
}

// No pair of characters twice in the 上联 (家和 ... 家和), which reads as a
// slip: after a character that stood earlier, the one that followed it then
// may not follow now. 叠字 (年年) is one pair, and a third 年 is not offered.
// Keeps `allowed` when it would empty it. (The 下联 repeats a character only
// where the 上联 does, so it repeats a pair only as the 上联's mirror.)
void dropRepeatedPairs(const std::vector<int>& line, std::vector<int>& allowed)
{
    if (!lastCharacterRecurs(line)) return;
    const auto followed = [&](int t) {
        for (std::size_t p = 0; p + 1 < line.size(); ++p)
            if (line[p] == line.back() && line[p + 1] == t) return true;
        return false;
    };
    if (std::all_of(allowed.begin(), allowed.end(), followed)) return;
    std::erase_if(allowed, followed);
}

} // namespace

TokenClasses::TokenClasses(const Vocab& vocab, const ToneTable& tones)
    : level(vocab.size(), 0), oblique(vocab.size(), 0), zodiac(vocab.size(), -1), omen(vocab.size(), 0),
      yearMirror(vocab.size(), 0), yearWord(vocab.size(), 0), reduplicable(vocab.size(), 0)
{
    const auto flag = [&](std::u32string_view characters, std::vector<char>& into) {
        for (char32_t c : characters)
            if (vocab.contains(c)) into[static_cast<std::size_t>(vocab.id(c))] = 1;
    };
    flag(kYearMirrors, yearMirror);
    flag(kYearWords, yearWord);
    flag(kOmenCharacters, omen);
    flag(kReduplicable, reduplicable);
    const auto addWords = [&](const auto& words) {
        for (std::u32string_view w : words)
            if (vocab.contains(w[0]) && vocab.contains(w[1])) omenWords.emplace_back(vocab.id(w[0]), vocab.id(w[1]));
    };
    addWords(kOmenWords);
    addWords(kFalseYearWords);
    for (std::u32string_view pair : kOffSeasonMirrors)
        if (vocab.contains(pair[0]) && vocab.contains(pair[1])) offSeason.emplace_back(vocab.id(pair[0]), vocab.id(pair[1]));
    std::sort(omenWords.begin(), omenWords.end());
    for (int id = tok::kFirstChar; id < vocab.size(); ++id) {
        if (vocab.isPunctuation(id)) {
            punctuation.push_back(id);
        } else if (vocab.isHan(id)) {
            han.push_back(id);
            const Tone t = tones.tone(vocab.character(id));
            level[id] = t == Tone::Level;
            oblique[id] = t == Tone::Oblique;
            zodiac[id] = static_cast<signed char>(zodiacIndex(vocab.character(id)));
        }
    }
    for (int animal = -1; animal < kManyZodiac; ++animal) {
        std::vector<int> plain;
        for (int t : han)
            if (!omen[t] && (animal < 0 || zodiac[t] < 0 || zodiac[t] == animal)) plain.push_back(t);
        std::vector<int> marks = plain;
        marks.insert(marks.end(), punctuation.begin(), punctuation.end());
        m_upperPools.emplace_back(level.size(), std::move(plain));
        m_upperPools.emplace_back(level.size(), std::move(marks));
    }
}

const TokenPool& TokenClasses::upperPool(int animal, bool marks) const
{
    if (animal < -1 || animal >= kManyZodiac) throw std::out_of_range("no year animal " + std::to_string(animal));
    return m_upperPools[static_cast<std::size_t>((animal + 1) * 2 + (marks ? 1 : 0))];
}

CoupletConstraints::CoupletConstraints(const TokenClasses& classes, const PhraseTrie& trie, ConstraintSpec spec)
    : m_classes(classes), m_trie(trie), m_spec(std::move(spec)), m_shape(lineShapeFor(m_spec.length))
{
    // The line buffers are sized once here; the vocabulary-sized ones at the
    // first step (allowed()), so that a request waiting in the queue holds
    // no 30 KB list it has not begun to use: a bench of 2,048 queued requests
    // reserved 60 MB up front and then faulted it in, page by page, inside
    // the decoding steps.
    m_upper.reserve(tok::kMaxLineChars + 1);
    m_lower.reserve(tok::kMaxLineChars + 1);
    m_hengpi.reserve(8);
    m_upper.assign(m_spec.upper.begin(), m_spec.upper.end());
    m_segment = m_upper.empty() ? Segment::Upper : Segment::Lower;
    for (int t : m_upper) noteAnimal(t);
    if (m_animal < 0) m_animal = m_spec.yearAnimal;
    std::erase_if(m_spec.requiredKeywords, [](const auto& k) { return k.empty(); });
    for (const auto& k : m_spec.requiredKeywords) m_ownTokens.insert(m_ownTokens.end(), k.begin(), k.end());
    for (int t : {m_spec.acrosticUpper, m_spec.acrosticLower})
        if (t >= 0) m_ownTokens.push_back(t);
    std::sort(m_ownTokens.begin(), m_ownTokens.end());
    m_ownUpperPool = m_spec.acrosticLower >= 0
        || std::any_of(m_ownTokens.begin(), m_ownTokens.end(), [&](int t) { return classes.omen[static_cast<std::size_t>(t)] != 0; });
    m_keywords = KeywordPlan(m_spec.requiredKeywords);
    // With the tone rule the last character must be chosen by tone, so the
    // keywords end before it when they leave room for that.
    const int taken = m_keywords.totalLength() + (m_spec.acrosticUpper >= 0 ? 1 : 0);
    m_keywordReserve = m_spec.tonePattern && m_spec.length > 0 && taken < m_spec.length ? 1 : 0;
}

bool CoupletConstraints::forceKeyword(int position) // Han characters written (tokens when free)
{
    if (m_keywords.empty() || m_segment != Segment::Upper) return false;
    const int limit = m_spec.length > 0 ? m_spec.length : tok::kMaxLineChars;
    const int token = m_keywords.forcedToken(m_upper, limit - position - m_keywordReserve);
    if (token < 0) return false;
    only(token);
    return true;
}

const std::vector<int>& CoupletConstraints::currentLine() const
{
    return m_segment == Segment::Upper ? m_upper : m_segment == Segment::Lower ? m_lower : m_hengpi;
}

const std::vector<int>& CoupletConstraints::allowed()
{
    m_view = &m_allowed;
    m_viewMask = nullptr;
    if (m_allowed.capacity() == 0) m_allowed.reserve(m_classes.han.size() + m_classes.punctuation.size() + 2);
    m_allowed.clear();
    switch (m_segment) {
    case Segment::Upper: allowUpper(); break;
    case Segment::Lower: allowLower(); break;
    case Segment::Hengpi: allowHengpi(); break;
    case Segment::Done: break;
    }
    return *m_view;
}

void CoupletConstraints::only(int token)
{
    m_allowed.assign(1, token);
}

void CoupletConstraints::preferFlagged(const std::vector<char>& flag)
{
    const auto kept = std::count_if(m_allowed.begin(), m_allowed.end(), [&](int t) { return flag[t] != 0; });
    if (kept > 0) std::erase_if(m_allowed, [&](int t) { return flag[t] == 0; });
}

void CoupletConstraints::noteAnimal(int token)
{
    if (m_animal < 0) m_animal = m_classes.zodiac[token];
}

bool CoupletConstraints::isOtherAnimal(int token) const
{
    return !m_spec.mixedZodiac && m_classes.zodiac[token] >= 0 && m_classes.zodiac[token] != m_animal;
}

bool CoupletConstraints::isOmen(int token) const
{
    return m_classes.omen[static_cast<std::size_t>(token)] && !std::binary_search(m_ownTokens.begin(), m_ownTokens.end(), token);
}

void CoupletConstraints::dropBanned(const std::vector<int>& line, bool anyAnimal)
{
    std::erase_if(m_allowed, [&](int t) { return (!anyAnimal && isOtherAnimal(t)) || isOmen(t); });
    dropOmenWords(line);
}

void CoupletConstraints::dropOmenWords(const std::vector<int>& line)
{
    if (line.empty()) return;
    const auto& words = m_classes.omenWords;
    for (auto it = std::lower_bound(words.begin(), words.end(), std::pair{line.back(), -1});
         it != words.end() && it->first == line.back(); ++it)
        if (!std::binary_search(m_ownTokens.begin(), m_ownTokens.end(), it->second)) std::erase(m_allowed, it->second);
}

const TokenPool& CoupletConstraints::upperPool(bool marks)
{
    const int animal = m_spec.mixedZodiac ? -1 : m_animal;
    if (!m_ownUpperPool) return m_classes.upperPool(animal, marks);
    if (m_ownUpperPoolAnimal != animal) {
        // The model's pool, without the 下联's 藏头 character (the 下联 could
        // not start with it) and with the user's own characters of mourning.
        std::vector<int> plain = m_classes.upperPool(animal, false).ids;
        std::erase(plain, m_spec.acrosticLower);
        for (int t : m_ownTokens)
            if (m_classes.omen[static_cast<std::size_t>(t)] && t != m_spec.acrosticLower
                && std::binary_search(m_classes.han.begin(), m_classes.han.end(), t)
                && (animal < 0 || !isOtherAnimal(t)) && !std::binary_search(plain.begin(), plain.end(), t))
                plain.insert(std::lower_bound(plain.begin(), plain.end(), t), t);
        std::vector<int> withMarks = plain;
        withMarks.insert(withMarks.end(), m_classes.punctuation.begin(), m_classes.punctuation.end());
        m_ownUpperPoolPlain = TokenPool(m_classes.level.size(), std::move(plain));
        m_ownUpperPoolMarks = TokenPool(m_classes.level.size(), std::move(withMarks));
        m_ownUpperPoolAnimal = animal;
    }
    return marks ? m_ownUpperPoolMarks : m_ownUpperPoolPlain;
}

bool CoupletConstraints::endsInOmenWordStart(const std::vector<int>& line) const
{
    if (line.empty()) return false;
    const auto& words = m_classes.omenWords;
    const auto it = std::lower_bound(words.begin(), words.end(), std::pair{line.back(), -1});
    return it != words.end() && it->first == line.back();
}

bool CoupletConstraints::markAllowed(int written, bool marked, bool prevIsMark, bool lastPosition) const
{
    if (written == 0 || prevIsMark || lastPosition) return false;
    if (m_spec.length == 0) return true; // free length: wherever the model puts one
    return m_shape.marked() && !marked && written >= m_shape.breakMin && written <= m_shape.breakMax;
}

bool CoupletConstraints::markDue(int written, bool marked, bool prevIsMark) const
{
    return m_spec.length > 0 && m_shape.marked() && !marked && !prevIsMark && written == m_shape.breakMax
        && !m_classes.punctuation.empty();
}

void CoupletConstraints::allowUpper()
{
    const int i = static_cast<int>(m_upper.size());
    const int written = i - m_upperMarks; // Han characters: the length counts these
    const int n = m_spec.length;
    const bool prevIsMark = i > 0 && std::find(m_classes.punctuation.begin(), m_classes.punctuation.end(),
                                               m_upper.back()) != m_classes.punctuation.end();
    if ((n > 0 && written == n) || i >= tok::kMaxLineChars) return only(tok::kLower);
    // A long line breaks at its natural place (LineShape): the mark is due
    // once the first part is as long as it may be. It comes before a name
    // character due at the same place, which counts Han characters too.
    if (markDue(written, m_upperMarks > 0, prevIsMark)) {
        m_allowed = m_classes.punctuation;
        return;
    }
    if (written == m_spec.embedIndex && m_spec.acrosticUpper >= 0) return only(m_spec.acrosticUpper);
    if (forceKeyword(n > 0 ? written : i)) return;
    // Before the name the 上联 does not write its character: the 下联 would
    // have to repeat its own character there (叠字) where the name stands.
    const bool beforeName = m_spec.acrosticUpper >= 0 && written < m_spec.embedIndex;
    const bool lastPosition = (n > 0 && written == n - 1) || (n == 0 && i == tok::kMaxLineChars - 1);
    // Until the 上联 names an animal any may come; then only that one. No
    // words of mourning. Punctuation may follow a character, except last.
    const bool marks = markAllowed(written, m_upperMarks > 0, prevIsMark, lastPosition);
    const TokenPool& pool = upperPool(marks);
    const bool toneAtEnd = m_spec.tonePattern && lastPosition;
    const bool endsWell = !m_spec.tonePattern
        || (i > 0 && m_classes.oblique[m_upper.back()]
            && std::count(m_upper.begin(), m_upper.end(), m_upper.back()) == 1);
    // A line of free length goes on after the name: at its end it would be 雁足格.
    const bool nameWritten = m_spec.acrosticUpper < 0 || m_spec.embedIndex == 0 || written > m_spec.embedIndex + 1;
    const bool mayEnd = n == 0 && i > 0 && !prevIsMark && endsWell && nameWritten && m_keywords.satisfiedBy(m_upper);
    const bool stutter = wouldStutter(prevIsMark);
    if (!toneAtEnd && !mayEnd && !beforeName && !stutter && !endsInOmenWordStart(m_upper) && !lastCharacterRecurs(m_upper)) {
        m_view = &pool.ids; // most steps: the pool as it is
        m_viewMask = &pool.mask;
        return;
    }
    m_allowed.assign(pool.ids.begin(), pool.ids.end());
    if (beforeName) std::erase(m_allowed, m_spec.acrosticUpper);
    dropOmenWords(m_upper);
    dropRepeatedPairs(m_upper, m_allowed);
    if (stutter && m_allowed.size() > 1) std::erase(m_allowed, m_upper.back());
    if (toneAtEnd) {
        // A repeated last character would force the 下联 to mirror it, and
        // then its tone could not be chosen.
        std::erase_if(m_allowed, [&](int t) { return std::find(m_upper.begin(), m_upper.end(), t) != m_upper.end(); });
        preferFlagged(m_classes.oblique);
    }
    if (mayEnd) m_allowed.push_back(tok::kLower);
}

bool CoupletConstraints::wouldStutter(bool prevIsMark) const
{
    const std::size_t i = m_upper.size();
    if (i == 0 || prevIsMark) return false;
    const int last = m_upper.back();
    // The second pair of AABB (平平安安, 红红火火) once the first is written.
    if (i >= 3 && m_upper[i - 3] == m_upper[i - 2] && m_upper[i - 2] != last) return false;
    // A keyword's last character is not doubled (团圆圆好梦 tears 团圆).
    for (const auto& k : m_spec.themes)
        if (k.size() > 1 && i >= k.size() && std::equal(k.begin(), k.end(), m_upper.end() - static_cast<std::ptrdiff_t>(k.size())))
            return true;
    return !m_classes.reduplicable[static_cast<std::size_t>(last)];
}

void CoupletConstraints::allowLower()
{
    const std::size_t j = m_lower.size();
    if (j == m_upper.size()) return only(tok::kHengpi);
    const int mirror = m_upper[j];
    if (std::find(m_classes.punctuation.begin(), m_classes.punctuation.end(), mirror) != m_classes.punctuation.end())
        return only(mirror);
    for (std::size_t k = 0; k < j; ++k)
        if (m_upper[k] == mirror) return only(m_lower[k]); // 叠字: repeat where 上联 repeats
    // The name's place counts Han characters, as the 上联's does: the marks
    // the 下联 mirrors before it are not counted.
    const auto marksBefore = std::count_if(m_upper.begin(), m_upper.begin() + static_cast<std::ptrdiff_t>(j), [&](int t) {
        return std::find(m_classes.punctuation.begin(), m_classes.punctuation.end(), t) != m_classes.punctuation.end();
    });
    const int written = static_cast<int>(j) - static_cast<int>(marksBefore);
    if (written == m_spec.embedIndex && m_spec.acrosticLower >= 0) return only(m_spec.acrosticLower);
    // Han characters minus the 上联's, made once, and minus each 下联
    // character as it is written (the list is sorted, as TokenClasses::han):
    // rebuilding it from 7,000 characters every step cost more than the rest
    // of the constraints together.
    if (!m_lowerPoolReady) {
        std::vector<int> pool;
        pool.reserve(m_classes.han.size());
        // The 下联 names no other year animal than the couplet's (none if
        // it has none): 龙年 is not answered with 蛇岁. The 上联's own
        // characters are left out, in one walk along both sorted lists.
        std::vector<int> upper = m_upper;
        std::sort(upper.begin(), upper.end());
        auto next = upper.begin();
        for (int t : m_classes.han) {
            while (next != upper.end() && *next < t) ++next;
            if ((next == upper.end() || *next != t) && !isOtherAnimal(t) && !isOmen(t)) pool.push_back(t);
        }
        m_lowerPool = TokenPool(m_classes.level.size(), std::move(pool));
        m_lowerPoolReady = true;
    }
    for (; m_lowerPoolUsed < m_lower.size(); ++m_lowerPoolUsed) m_lowerPool.erase(m_lower[m_lowerPoolUsed]);
    if (m_counterpartAt == -2) {
        // Once the 上联 is written: where it holds the keyword run, and
        // whether the phrase may stand opposite (none of its characters in
        // the 上联). The run holds no mark, so neither does its place.
        m_counterpartAt = -1;
        const auto& run = m_spec.counterpartRun;
        if (run.size() == 4 && m_spec.counterpart.size() == 4) {
            const auto at = std::search(m_upper.begin(), m_upper.end(), run.begin(), run.end());
            const bool clash = std::any_of(m_spec.counterpart.begin(), m_spec.counterpart.end(), [&](int t) {
                return std::find(m_upper.begin(), m_upper.end(), t) != m_upper.end();
            });
            if (at != m_upper.end() && !clash) m_counterpartAt = static_cast<int>(at - m_upper.begin());
        }
    }
    if (m_counterpartAt >= 0 && static_cast<int>(j) >= m_counterpartAt && static_cast<int>(j) < m_counterpartAt + 4) {
        const int t = m_spec.counterpart[j - static_cast<std::size_t>(m_counterpartAt)];
        if (m_lowerPool.mask.has(t)) return only(t);
    }
    // The 上联 names its year here (龙年): the 下联 answers with 春, 福, ...
    // (omens.h), not with 凤.
    const bool namedYear = j + 1 < m_upper.size() && m_classes.zodiac[static_cast<std::size_t>(mirror)] >= 0
        && m_classes.yearWord[static_cast<std::size_t>(m_upper[j + 1])];
    const bool toneAtEnd = m_spec.tonePattern && j + 1 == m_upper.size();
    const bool facesSeason = std::any_of(m_classes.offSeason.begin(), m_classes.offSeason.end(),
                                         [&](const auto& p) { return p.first == mirror; });
    const bool beforeName = m_spec.acrosticLower >= 0 && written < m_spec.embedIndex;
    if (!namedYear && !toneAtEnd && !facesSeason && !beforeName && !endsInOmenWordStart(m_lower)
        && !m_lowerPool.ids.empty()) {
        m_view = &m_lowerPool.ids; // most steps: the pool as it is
        m_viewMask = &m_lowerPool.mask;
        return;
    }
    m_allowed.assign(m_lowerPool.ids.begin(), m_lowerPool.ids.end());
    dropOmenWords(m_lower); // the pool holds no character of mourning
    if (beforeName) std::erase(m_allowed, m_spec.acrosticLower);
    for (const auto& [up, down] : m_classes.offSeason)
        if (up == mirror) std::erase(m_allowed, down);
    if (namedYear) preferFlagged(m_classes.yearMirror);
    if (toneAtEnd) preferFlagged(m_classes.level);
    if (m_allowed.empty()) throw std::runtime_error("no character is left for the 下联 at position " + std::to_string(j + 1));
}

void CoupletConstraints::allowHengpi()
{
    const std::size_t h = m_hengpi.size();
    if (h == 4) return only(tok::kEos);
    if (!m_spec.hengpi.empty()) return only(m_spec.hengpi[h]);
    if (m_spec.freeHengpi || m_trie.empty()) {
        m_allowed = m_classes.han;
        dropBanned(m_hengpi, false);
        return;
    }
    // Phrases of another year's animal (龙年吉祥 on a 羊 couplet, or on one
    // that names none), of another occasion, or repeating the couplet's words
    // are not offered (suitableHengpi).
    if (m_hengpiOk.empty()) {
        HengpiContext context;
        context.animal = m_spec.hengpiAnimal >= 0 ? m_spec.hengpiAnimal : m_animal;
        context.anyAnimal = m_spec.mixedZodiac && m_spec.hengpiAnimal < 0;
        context.occasions = m_spec.occasions;
        context.upper = &m_upper;
        context.lower = &m_lower;
        context.themes = &m_spec.themes;
        context.zodiac = &m_classes.zodiac;
        m_hengpiOk = suitableHengpi(m_trie, context);
    }
    for (const auto& [token, node] : m_trie.children(m_trieNode))
        if (m_trie.reachesAny(node, m_hengpiOk)) m_allowed.push_back(token);
    if (m_allowed.empty())
        for (const auto& [token, node] : m_trie.children(m_trieNode)) m_allowed.push_back(token);
}

void CoupletConstraints::advance(int token)
{
    switch (m_segment) {
    case Segment::Upper:
        if (token == tok::kLower) {
            m_segment = Segment::Lower;
        } else {
            m_upper.push_back(token);
            noteAnimal(token);
            if (std::find(m_classes.punctuation.begin(), m_classes.punctuation.end(), token) != m_classes.punctuation.end())
                ++m_upperMarks;
        }
        break;
    case Segment::Lower:
        if (token == tok::kHengpi) m_segment = Segment::Hengpi;
        else m_lower.push_back(token);
        break;
    case Segment::Hengpi:
        if (token == tok::kEos) {
            m_segment = Segment::Done;
        } else {
            m_hengpi.push_back(token);
            if (!m_spec.freeHengpi && m_spec.hengpi.empty() && !m_trie.empty())
                m_trieNode = std::max(0, m_trie.child(m_trieNode, token));
        }
        break;
    case Segment::Done: throw std::logic_error("token after the end of the couplet");
    }
}

} // namespace couplet
