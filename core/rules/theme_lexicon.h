#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace couplet {

// Words of each theme (the model's themes.tsv, built from the corpus by
// scripts/build-lexicons.py): spring (the festival), the occasions of
// occasion.h by their names (wedding, business, ...), animal-羊 and the
// other year animals. The reranker rewards a couplet that speaks of its
// prompt's theme in the theme's own words.
class ThemeLexicon {
public:
    // themes.tsv: "theme<TAB>word<TAB>lift" lines. Throws std::runtime_error
    // naming the file and line of a bad one.
    static ThemeLexicon load(const std::filesystem::path& path);
    void add(const std::string& theme, std::u32string word);

    bool empty() const { return m_words.empty(); }
    // The theme names, sorted.
    std::vector<std::string> themeNames() const;
    // The theme's words; empty for a theme the lexicon lacks.
    const std::vector<std::u32string>& words(const std::string& theme) const;
    // The themes a prompt speaks of: its occasions (occasionsOf), the year
    // animal's (-1: none), and the festival's when it names no occasion.
    static std::vector<std::string> themesOf(std::u32string_view prompt, int animal);
    // Distinct words of `themes` that `text` holds and `prompt` does not (the
    // prompt's own words are the keyword term's).
    int themeWords(const std::vector<std::string>& themes, std::u32string_view text, std::u32string_view prompt) const;

private:
    std::map<std::string, std::vector<std::u32string>> m_words;
};

// Verse melancholy (秋, 暮, 愁, 瘦, 孤, 寒, 月 ...) in `text` that `prompt`
// did not ask for: a spring couplet is festive. 千秋, 岁月, 月圆 and the
// like are no lament and are not counted.
int melancholyCharacters(std::u32string_view text, std::u32string_view prompt);

} // namespace couplet
