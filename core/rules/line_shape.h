#pragma once

#include "vocab.h"

#include <string_view>

namespace couplet {

// How a line of a requested number of Han characters is written. A length
// counts characters, never punctuation (a 九言 line has nine). Lines of eight
// or more carry one mark at a natural break, each part at least four
// characters (9: 4+5 or 5+4; 11: after 4 to 7), as the corpus writes them:
// of its 9-character 上联, 1,076 have one mark after the 4th or 5th
// character and 61 none; of its 11-character ones, 5,508 after the 4th to
// 7th and none without. Shorter lines (五言, 七言) carry none.
struct LineShape {
    int characters = 0; // Han characters; 0 = free
    int breakMin = 0;   // the mark follows the breakMin-th to breakMax-th character; 0 = no mark
    int breakMax = 0;
    bool marked() const { return breakMax > 0; }
    // Tokens of the line, the mark included: what the <lenN> token states.
    int tokens() const { return characters + (marked() ? 1 : 0); }
};

inline constexpr int kMinClause = 4;     // characters of the shortest part of a broken line
inline constexpr int kMinMarkedLine = 8; // shortest line with a mark

inline LineShape lineShapeFor(int characters)
{
    if (characters < kMinMarkedLine || characters + 1 > tok::kMaxLineChars) return {characters, 0, 0};
    return {characters, kMinClause, characters - kMinClause};
}

// Han characters in `line`, punctuation not counted.
inline int countCharacters(std::u32string_view line)
{
    int n = 0;
    for (char32_t c : line)
        if (!isCoupletPunctuation(c)) ++n;
    return n;
}

} // namespace couplet
