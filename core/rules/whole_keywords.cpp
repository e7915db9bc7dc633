#include "whole_keywords.h"

#include "vocab.h"
#include "word_table.h"
#include "word_terms.h"

#include <algorithm>

namespace couplet {

void WholeKeywords::build(const WordTable& words, const Vocab& vocab)
{
    m_words = nullptr;
    m_followers.assign(static_cast<std::size_t>(vocab.size()), {});
    m_starts.clear();
    if (words.empty()) return;
    words.forEachWord([&](std::u32string_view w) {
        if (w.size() == 2) {
            const int a = vocab.id(w[0]), b = vocab.id(w[1]);
            if (vocab.isCharacter(a) && vocab.isCharacter(b)) m_followers[static_cast<std::size_t>(a)].push_back(b);
        } else if (w.size() == 4) {
            m_starts.emplace(w.substr(0, 3));
        }
    });
    for (auto& f : m_followers) {
        std::sort(f.begin(), f.end());
        f.erase(std::unique(f.begin(), f.end()), f.end());
        f.shrink_to_fit();
    }
    m_words = &words;
    m_vocab = &vocab;
}

bool WholeKeywords::tears(const std::u32string& text, const std::u32string& keyword) const
{
    if (!tearsKeyword(*m_words, text, keyword)) return false;
    // A four-character word may yet hold it whole.
    return text.size() < 3 || !m_starts.count(text.substr(text.size() - 3));
}

void WholeKeywords::tornNext(const std::vector<int>& line, const std::vector<int>& keyword, std::vector<int>& out) const
{
    const std::size_t n = keyword.size();
    if (empty() || n < 2 || line.empty()) return;
    // Most steps are neither: the line ends with neither the keyword nor all
    // but its last character, and nothing is read.
    const bool due = line.size() >= n - 1
        && std::equal(keyword.begin(), keyword.end() - 1, line.end() - static_cast<std::ptrdiff_t>(n - 1));
    const bool written = line.size() >= n && std::equal(keyword.begin(), keyword.end(), line.end() - static_cast<std::ptrdiff_t>(n));
    if (!due && !written) return;
    std::u32string text, word;
    for (int t : line) text += m_vocab->character(t);
    for (int t : keyword) word += m_vocab->character(t);
    // Completing the keyword: does a word of the line swallow its first part?
    if (due && (line.size() == n - 1 || text.find(word) == std::u32string::npos)) {
        text += word.back();
        if (tears(text, word)) out.push_back(keyword.back());
        text.pop_back();
    }
    // Just after the keyword: would the next character make a word with its end?
    if (written && text.find(word) == text.size() - n) {
        for (int t : m_followers[static_cast<std::size_t>(keyword.back())]) {
            text += m_vocab->character(t);
            if (tears(text, word)) out.push_back(t);
            text.pop_back();
        }
    }
}

} // namespace couplet
