#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace couplet {

// Words of modern Chinese with their frequency and part of speech: the
// model's words.tsv, cut from jieba's dictionary (scripts/build-lexicons.py).
// Splits a line into words the way jieba does (the most probable route
// through the words the line holds), so that the reranker can tell a line
// of words (春风 / 送暖 / 千家 / 乐) from one of loose characters that make no
// word (五 / 景, 福 / 光).
class WordTable {
public:
    struct Word {
        float logProb = 0; // log(frequency)
        char pos = 0;      // coarse part of speech: jieba's first letter (n, v, a, m, ...)
    };

    // words.tsv: "word<TAB>frequency<TAB>part of speech" lines. Throws
    // std::runtime_error naming the file and line of a bad one.
    static WordTable load(const std::filesystem::path& path);
    void add(std::u32string word, double frequency, char pos);

    bool empty() const { return m_words.empty(); }
    std::size_t size() const { return m_words.size(); }
    const Word* find(std::u32string_view word) const;
    // Word lengths of the most probable split of `clause` (Han characters, no
    // marks); a character the table lacks stands alone.
    std::vector<int> segment(std::u32string_view clause) const;

    // Calls f(word) for every word.
    template <class F> void forEachWord(F&& f) const
    {
        for (const auto& entry : m_words) f(std::u32string_view(entry.first));
    }
    // Calls f(a, b) for every two-character word.
    template <class F> void forEachPair(F&& f) const
    {
        forEachWord([&](std::u32string_view w) {
            if (w.size() == 2) f(w[0], w[1]);
        });
    }

    static constexpr int kMaxWord = 4;

private:
    std::unordered_map<std::u32string, Word> m_words;
    double m_total = 0;
};

// The clauses of a line: the runs between its marks.
std::vector<std::u32string_view> clausesOf(std::u32string_view line);

} // namespace couplet
