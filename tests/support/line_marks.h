#pragma once

#include "line_shape.h"
#include "vocab.h"

#include <string>

namespace couplet {

// The punctuation marks of a couplet line, counted independently of the
// generator: how many there are and how many stand outside the natural break
// of a `length`-character line (LineShape: after the breakMin-th to the
// breakMax-th Han character).
struct LineMarks {
    int marks = 0;
    int misplaced = 0;
};

inline LineMarks lineMarks(const std::u32string& line, int length)
{
    const LineShape shape = lineShapeFor(length);
    LineMarks m;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (!isCoupletPunctuation(line[i])) continue;
        ++m.marks;
        const int before = countCharacters(std::u32string_view(line).substr(0, i));
        if (before < shape.breakMin || before > shape.breakMax) ++m.misplaced;
    }
    return m;
}

} // namespace couplet
