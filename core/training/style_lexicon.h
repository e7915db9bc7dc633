#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace couplet {

// The spring-festival lexicon that tells the festive modern couplets from the
// other modern ones (training/festive-lexicon.txt). Each word weighs 2 (新春,
// 爆竹, 龙年: festive on its own) or 1 (福, 春风, 平安: festive only with
// another); a pair whose distinct words weigh kFestiveWeight or more is festive.
class StyleLexicon {
public:
    static constexpr int kFestiveWeight = 2;

    // One "word weight" a line; '#' starts a comment. Throws std::runtime_error
    // naming the file and line of anything else.
    static StyleLexicon load(const std::filesystem::path& path);
    explicit StyleLexicon(std::vector<std::pair<std::u32string, int>> words = {}) : m_words(std::move(words)) {}

    // Sum of the weights of the lexicon's words that occur in `text` (each counted once).
    int weight(const std::u32string& text) const;
    bool festive(const std::u32string& upper, const std::u32string& lower) const
    {
        return weight(upper + U"\n" + lower) >= kFestiveWeight;
    }
    std::size_t size() const { return m_words.size(); }

private:
    std::vector<std::pair<std::u32string, int>> m_words;
};

} // namespace couplet
