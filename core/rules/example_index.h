#pragma once

#include "theme_lexicon.h"
#include "vocab.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace couplet {

// Theme examples (retrieval-augmented writing). A model whose vocabulary has
// <ex> (Vocab::exampleToken) reads a real couplet of the prompt's theme before
// the prompt, as context, never as a target:
//   <bos> [<style>] <ex> 例上联 <sep> 例下联 [<kw> ...] [<lenN>] <up> ...
// so that a small model can borrow an occasion's words and shape from it.

// Where a model folder keeps its retrieval index ("上联<TAB>下联" lines, built
// from the training split only by `couplet train --example-index`).
inline constexpr const char* kExampleIndexFile = "examples.tsv";

struct ExamplePair {
    std::u32string upper;
    std::u32string lower;
};

// The prefix tokens of an example: <ex> 上联 <sep> 下联. Empty when the
// vocabulary has no <ex>.
std::vector<int> examplePrefix(const Vocab& vocab, const ExamplePair& example);
// Where the example prefix of `tokens` starts: after <bos> and a style token.
std::size_t examplePrefixAt(const std::vector<int>& tokens, const Vocab& vocab);
// The example a token sequence carries (what examplePrefix wrote), or nothing.
std::optional<ExamplePair> exampleIn(const std::vector<int>& tokens, const Vocab& vocab);

// Couplets to draw examples from, found by the themes of a ThemeLexicon and by
// shared character pairs (bigrams).
class ExampleIndex {
public:
    ExampleIndex() = default;
    // Indexes `pairs` (lines longer than maxChars are left out). `lexicon` may
    // be empty: then only shared bigrams relate couplets.
    ExampleIndex(std::vector<ExamplePair> pairs, const ThemeLexicon& lexicon, std::size_t maxChars = 12);

    // examples.tsv: "上联<TAB>下联" lines. Throws naming the file and line of a bad one.
    static ExampleIndex load(const std::filesystem::path& path, const ThemeLexicon& lexicon);
    void save(const std::filesystem::path& path) const;

    bool empty() const { return m_pairs.empty(); }
    std::size_t size() const { return m_pairs.size(); }
    const ExamplePair& pair(std::size_t i) const { return m_pairs[i]; }
    // The theme names of the lexicon that pair i speaks of (a word of the theme in it).
    const std::vector<int>& themesOfPair(std::size_t i) const { return m_pairThemes[i]; }
    const std::vector<std::string>& themeNames() const { return m_themeNames; }

    // Training: a random couplet related to `upper`/`lower` (the one being
    // trained on): of one of its themes or sharing a bigram with it, never
    // one that shares a line with it. Nothing when none is related.
    std::optional<std::size_t> related(std::u32string_view upper, std::u32string_view lower,
                                       std::mt19937_64& rng) const;

    // Generation: the couplet that best fits a prompt: of the `themes`
    // (ThemeLexicon::themesOf), sharing the most bigrams and theme words with
    // `query` (keywords, a given 上联, 藏头): 2 a shared bigram, 1 a distinct
    // word of each theme (2 at most), 3 an occasion of the query's (its cue
    // words: 医, 婚, 开业 ..., occasion.h), 0.1 a shared character (up to 9); never one holding
    // a line of `query` itself. Ties are broken by `seed`. Nothing when none fits.
    std::optional<std::size_t> best(std::u32string_view query, const std::vector<std::string>& themes,
                                    std::uint64_t seed) const;

    // A chosen subset for shipping: up to perTheme couplets of each theme,
    // those naming its occasion (occasion.h) first, then those with the most of its words (ties in a random order of
    // `rng`), and perTheme of those without one.
    ExampleIndex sample(std::size_t perTheme, const ThemeLexicon& lexicon, std::mt19937_64& rng) const;

private:
    void build(const ThemeLexicon& lexicon);
    // How many distinct words of theme `theme` pair `pair` holds.
    int themeWordsOf(std::size_t pair, int theme) const;

    std::vector<ExamplePair> m_pairs;
    std::vector<std::vector<int>> m_pairThemes;                        // theme ids per pair
    std::vector<std::vector<int>> m_pairThemeWords;                    // ... and how many of its words each
    std::vector<unsigned> m_pairOccasions;                             // occasionsOf() each pair
    std::vector<std::string> m_themeNames;                             // by theme id
    std::vector<std::vector<std::u32string>> m_themeWords;             // by theme id
    std::vector<std::vector<std::uint32_t>> m_byTheme;                 // pairs by theme id
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> m_byBigram;
};

// True when `upper` or `lower` equals a line of `example`: a generated couplet
// that hands back (part of) its example is rejected.
bool copiesExample(std::u32string_view upper, std::u32string_view lower, const ExamplePair& example);

} // namespace couplet
