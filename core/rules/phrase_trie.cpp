#include "phrase_trie.h"

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

// Whether the phrase repeats a word (two adjacent characters) of the couplet:
// 春回大地 over a 上联 that says 春回.
bool repeatsCouplet(const PhraseTrie::Entry& e, const HengpiContext& c)
{
    for (std::size_t i = 0; i + 1 < e.tokens.size(); ++i)
        if (holdsPair(c.upper, e.tokens[i], e.tokens[i + 1]) || holdsPair(c.lower, e.tokens[i], e.tokens[i + 1])) return true;
    return false;
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
    // Each level a rule less: {repeat, own occasion only, occasion at all, year}.
    constexpr bool kLevels[][4] = {{true, true, true, true},    {false, true, true, true},
                                   {true, false, true, true},   {false, false, true, true},
                                   {false, false, false, true}, {false, false, false, false}};
    for (const auto& rules : kLevels) {
        bool any = false;
        for (std::size_t p = 0; p < phrases.size(); ++p) {
            const auto& e = phrases[p];
            const bool forAll = e.occasions == 0 || (e.occasions & kOccasionShared) != 0;
            const bool ownOccasion = context.occasions != 0 ? (e.occasions & context.occasions) != 0 : forAll;
            const bool fitsOccasion = forAll || (e.occasions & context.occasions) != 0;
            ok[p] = (!rules[0] || !repeatsCouplet(e, context)) && (!rules[1] || ownOccasion)
                && (!rules[2] || fitsOccasion) && (!rules[3] || suitsYear(e, context));
            any = any || ok[p];
        }
        if (any) return ok;
    }
    return ok;
}

} // namespace couplet
