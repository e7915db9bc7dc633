#include "phrase_trie.h"

#include "keyword_plan.h"
#include "occasion.h"
#include "zodiac.h"

#include <algorithm>

namespace couplet {
namespace {

bool holdsPair(const std::vector<int>* line, int a, int b)
{
    if (line == nullptr) return false;
    for (std::size_t i = 0; i + 1 < line->size(); ++i)
        if ((*line)[i] == a && (*line)[i + 1] == b) return true;
    return false;
}

bool inThemes(const HengpiContext& c, int token)
{
    if (c.themes == nullptr) return false;
    return std::any_of(c.themes->begin(), c.themes->end(),
                       [&](const auto& t) { return std::find(t.begin(), t.end(), token) != t.end(); });
}

bool themePair(const HengpiContext& c, int a, int b)
{
    if (c.themes == nullptr) return false;
    for (const auto& t : *c.themes)
        if (holdsPair(&t, a, b)) return true;
    return false;
}

// Whether the phrase holds a theme: a one-character keyword, or two adjacent
// characters of a longer one.
bool holdsTheme(const PhraseTrie::Entry& e, const HengpiContext& c)
{
    if (c.themes == nullptr) return false;
    for (const auto& t : *c.themes) {
        if (t.size() == 1 && std::find(e.tokens.begin(), e.tokens.end(), t[0]) != e.tokens.end()) return true;
        for (std::size_t i = 0; i + 1 < e.tokens.size(); ++i)
            if (t.size() > 1 && holdsPair(&t, e.tokens[i], e.tokens[i + 1])) return true;
    }
    return false;
}

// Distinct characters of the phrase that `line` holds: all of them, and
// those that are no theme's nor a year animal.
struct Shared {
    int all = 0;
    int outsideThemes = 0;
};
Shared sharedWith(const PhraseTrie::Entry& e, const HengpiContext& c, const std::vector<int>* line)
{
    Shared n;
    if (line == nullptr) return n;
    for (std::size_t i = 0; i < e.tokens.size(); ++i) {
        const int t = e.tokens[i];
        if (std::find(e.tokens.begin(), e.tokens.begin() + static_cast<std::ptrdiff_t>(i), t) != e.tokens.begin() + static_cast<std::ptrdiff_t>(i))
            continue;
        if (std::find(line->begin(), line->end(), t) == line->end()) continue;
        const bool animal = c.zodiac != nullptr && t >= 0 && static_cast<std::size_t>(t) < c.zodiac->size()
            && (*c.zodiac)[static_cast<std::size_t>(t)] >= 0;
        ++n.all;
        n.outsideThemes += !animal && !inThemes(c, t);
    }
    return n;
}

// Whether the phrase repeats the couplet: a whole run of a line (永结同心 over
// a 上联 that holds it), three of one line's characters (生意兴隆 over a 上联
// that holds both keywords), a word (two adjacent characters) of it that is no
// theme's own (春回大地 over a 上联 that says 春回), or, when strict, two
// characters of one line outside the themes (福临门第 over 门迎百福福星照).
bool repeatsCouplet(const PhraseTrie::Entry& e, const HengpiContext& c, bool strict)
{
    if ((c.upper != nullptr && containsRun(*c.upper, e.tokens)) || (c.lower != nullptr && containsRun(*c.lower, e.tokens)))
        return true;
    const Shared up = sharedWith(e, c, c.upper), down = sharedWith(e, c, c.lower);
    // Three characters of one line, themes or not: 生意兴隆 under 心思兴隆生意美
    // (both keywords again), 万事顺意 under 万事如意天地大.
    if (up.all >= 3 || down.all >= 3) return true;
    for (std::size_t i = 0; i + 1 < e.tokens.size(); ++i) {
        const int a = e.tokens[i], b = e.tokens[i + 1];
        if (themePair(c, a, b)) continue;
        if (holdsPair(c.upper, a, b) || holdsPair(c.lower, a, b)) return true;
    }
    return strict && (up.outsideThemes >= 2 || down.outsideThemes >= 2);
}

bool suitsYear(const PhraseTrie::Entry& e, const HengpiContext& c)
{
    return c.anyAnimal || e.animal < 0 || (c.animal >= 0 && e.animal == c.animal);
}

} // namespace

void PhraseTrie::insert(const std::vector<int>& phrase, int animal, unsigned occasions)
{
    // A phrase without an animal suits every year (bits 0-12), one with
    // animal k only year k, one with two animals none.
    const unsigned short suits = animal < 0 ? 0x1fff : animal < kManyZodiac ? 1u << animal : 0;
    const int index = static_cast<int>(m_entries.size());
    m_entries.push_back({phrase, animal, occasions});
    int node = 0;
    m_animals[0] |= suits;
    m_below[0].push_back(index);
    for (int token : phrase) {
        int next = child(node, token);
        if (next < 0) {
            next = static_cast<int>(m_children.size());
            m_children.emplace_back();
            m_animals.push_back(0);
            m_below.emplace_back();
            m_children[node].push_back({token, next});
        }
        node = next;
        m_animals[node] |= suits;
        m_below[node].push_back(index);
    }
}

int PhraseTrie::child(int node, int token) const
{
    for (const auto& [t, n] : m_children[node])
        if (t == token) return n;
    return -1;
}

bool PhraseTrie::reachesAny(int node, const std::vector<char>& ok) const
{
    const auto& below = m_below[node];
    return std::any_of(below.begin(), below.end(), [&](int p) { return ok[static_cast<std::size_t>(p)] != 0; });
}

std::vector<char> suitableHengpi(const PhraseTrie& trie, const HengpiContext& context)
{
    const auto& phrases = trie.phrases();
    std::vector<char> ok(phrases.size(), 0);
    // Each level a rule less: {theme, strict repeat, repeat, own occasion only, occasion at all, year}.
    constexpr bool kLevels[][6] = {{true, true, true, true, true, true},     {true, false, true, true, true, true},
                                   {false, true, true, true, true, true},    {false, false, true, true, true, true},
                                   {false, false, false, true, true, true},  {false, false, true, false, true, true},
                                   {false, false, false, false, true, true}, {false, false, false, false, false, true},
                                   {false, false, false, false, false, false}};
    const bool themed = context.themes != nullptr && !context.themes->empty();
    for (const auto& rules : kLevels) {
        if (rules[0] && !themed) continue;
        bool any = false;
        for (std::size_t p = 0; p < phrases.size(); ++p) {
            const auto& e = phrases[p];
            const bool forAll = e.occasions == 0 || (e.occasions & kOccasionShared) != 0;
            const bool ownOccasion = context.occasions != 0 ? (e.occasions & context.occasions) != 0 : forAll;
            const bool fitsOccasion = fitsOccasions(e.occasions, context.occasions);
            ok[p] = (!rules[0] || holdsTheme(e, context)) && (!rules[2] || !repeatsCouplet(e, context, rules[1]))
                && (!rules[3] || ownOccasion) && (!rules[4] || fitsOccasion) && (!rules[5] || suitsYear(e, context));
            any = any || ok[p];
        }
        if (any) return ok;
    }
    return ok;
}

} // namespace couplet
