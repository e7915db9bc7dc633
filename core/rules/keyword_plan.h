#pragma once

#include <string>
#include <vector>

namespace couplet {

// Guarantees that every keyword appears as a contiguous run in the 上联
// without choosing where: the model writes freely while the positions left
// could still hold the keywords it has not written whatever it writes next;
// once they only just fit, the rest of a keyword the line ends with, else the
// next missing keyword, is forced. Stateless between calls: everything follows from the line so far.
class KeywordPlan {
public:
    KeywordPlan() = default;
    explicit KeywordPlan(std::vector<std::vector<int>> keywords) : m_keywords(std::move(keywords)) {}

    bool empty() const { return m_keywords.empty(); }
    const std::vector<std::vector<int>>& keywords() const { return m_keywords; }
    // Characters of all keywords together.
    int totalLength() const;
    // The token the line must take next, or -1 when the model may choose.
    // room: positions left for keywords, this one included.
    int forcedToken(const std::vector<int>& line, int room) const;
    // True when every keyword occurs in `line`.
    bool satisfiedBy(const std::vector<int>& line) const;

private:
    std::vector<std::vector<int>> m_keywords;
};

// Splits keywords on commas, 、, semicolons and spaces of every kind, the
// invisible ones of pasted text too ("龙年 生意" and "龙年\u200b生意" -> 龙年, 生意).
std::vector<std::u32string> splitKeywords(const std::string& text);

// The longest proper prefix of `keyword` that `line` ends with (0 if none).
int pendingPrefix(const std::vector<int>& line, const std::vector<int>& keyword);

// True when `needle` occurs as a contiguous run in `line`.
bool containsRun(const std::vector<int>& line, const std::vector<int>& needle);

} // namespace couplet
