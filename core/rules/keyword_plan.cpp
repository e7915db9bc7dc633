#include "keyword_plan.h"

#include "utf8.h"

#include <algorithm>
#include <string_view>

namespace couplet {
int pendingPrefix(const std::vector<int>& line, const std::vector<int>& keyword)
{
    if (keyword.empty()) return 0;
    for (int q = static_cast<int>(std::min(line.size(), keyword.size() - 1)); q > 0; --q)
        if (std::equal(keyword.begin(), keyword.begin() + q, line.end() - q)) return q;
    return 0;
}

namespace {

// Commas, 、, semicolons and every kind of space, the invisible ones that pasted
// text carries too (no-break, zero-width, full-width spaces, line breaks, a BOM).
bool isKeywordSeparator(char32_t c)
{
    static constexpr std::u32string_view kMarks = U",，、;；";
    return kMarks.find(c) != std::u32string_view::npos || utf8::isSpace(c);
}

} // namespace

std::vector<std::u32string> splitKeywords(const std::string& text)
{
    std::vector<std::u32string> out;
    std::u32string current;
    for (char32_t c : utf8::decode(text)) {
        if (isKeywordSeparator(c)) {
            if (!current.empty()) out.push_back(std::move(current));
            current.clear();
        } else {
            current.push_back(c);
        }
    }
    if (!current.empty()) out.push_back(std::move(current));
    return out;
}

bool containsRun(const std::vector<int>& line, const std::vector<int>& needle)
{
    return !needle.empty() && std::search(line.begin(), line.end(), needle.begin(), needle.end()) != line.end();
}

int KeywordPlan::totalLength() const
{
    int n = 0;
    for (const auto& k : m_keywords) n += static_cast<int>(k.size());
    return n;
}

bool KeywordPlan::satisfiedBy(const std::vector<int>& line) const
{
    return std::all_of(m_keywords.begin(), m_keywords.end(), [&](const auto& k) { return containsRun(line, k); });
}

int KeywordPlan::forcedToken(const std::vector<int>& line, int room) const
{
    int need = 0, first = -1, continued = -1, prefix = 0;
    for (std::size_t k = 0; k < m_keywords.size(); ++k) {
        const auto& kw = m_keywords[k];
        if (containsRun(line, kw)) continue;
        need += static_cast<int>(kw.size());
        if (first < 0) first = static_cast<int>(k);
        if (const int q = pendingPrefix(line, kw); q > prefix) {
            prefix = q;
            continued = static_cast<int>(k);
        }
    }
    // Free while the keywords would still fit after any character at all
    // (a free character may also break a keyword the line ends with).
    if (first < 0 || need < room) return -1;
    return continued >= 0 ? m_keywords[continued][prefix] : m_keywords[first][0];
}

} // namespace couplet
