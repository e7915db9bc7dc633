#pragma once

#include <vector>

namespace couplet {

// A prefix tree of the 横批 phrases, in token ids.
class PhraseTrie {
public:
    struct Entry {
        std::vector<int> tokens;
        int animal = -1;        // zodiacOf(phrase) (zodiac.h): -1 none, 0-11, kManyZodiac
        unsigned occasions = 0; // Occasion bits (occasion.h); 0 = any couplet, kOccasionShared: any too
    };

    void insert(const std::vector<int>& phrase, int animal = -1, unsigned occasions = 0);
    // Tokens that continue some phrase after `node`; node 0 is the root.
    const std::vector<std::pair<int, int>>& children(int node) const { return m_children[node]; }
    int child(int node, int token) const; // -1 if none
    bool empty() const { return m_children.size() <= 1; }
    // Whether some phrase through `node` names no year animal but `animal`
    // (-1: none at all).
    bool reaches(int node, int animal) const { return (m_animals[node] >> (animal < 0 ? 12 : animal)) & 1; }
    const std::vector<Entry>& phrases() const { return m_entries; }
    // Whether some phrase through `node` has ok[its index in phrases()].
    bool reachesAny(int node, const std::vector<char>& ok) const;

private:
    std::vector<std::vector<std::pair<int, int>>> m_children{1}; // (token, node)
    // [node] bit k < 12: a phrase below names animal k or none; bit 12: none.
    std::vector<unsigned short> m_animals{0};
    std::vector<std::vector<int>> m_below{1}; // [node] phrases through it
    std::vector<Entry> m_entries;
};

// Which 横批 phrases suit a finished couplet (ok[phrase] = 1), the strictest
// rules that leave some: one that holds a theme of the prompt (a keyword, or
// two adjacent characters of a longer one) when some does; the phrases of the
// couplet's occasions when it has any (else those for any couplet); none that
// repeats the couplet: two adjacent characters of the 上联 or 下联 (but a
// theme's own), a whole four-character run, three characters of one line
// (生意兴隆 over a line that holds both keywords), or, strictest, two characters of
// one line that are no theme's nor a year animal (福临门第 over 门迎百福福星照); none naming
// another year animal than `animal` (-1: a couplet of no animal takes phrases
// of none; anyAnimal: no such rule). Relaxed in that order of importance: the
// theme and the strict repeat first, then the repeat, then the occasion (any
// phrase for any couplet or for the couplet's occasions), then the year.
struct HengpiContext {
    int animal = -1;
    bool anyAnimal = false;
    unsigned occasions = 0;
    const std::vector<int>* upper = nullptr;
    const std::vector<int>* lower = nullptr;
    const std::vector<std::vector<int>>* themes = nullptr; // token runs; null or empty = none
    // [token] year animal or -1 (TokenClasses::zodiac): the year's animal in a
    // line and the 横批 is the year's theme, not a retelling (吉羊 / 羊年吉祥).
    const std::vector<signed char>* zodiac = nullptr;
};
std::vector<char> suitableHengpi(const PhraseTrie& trie, const HengpiContext& context);

} // namespace couplet
