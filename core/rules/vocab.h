#pragma once

#include "writing_style.h"

#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace couplet {

// Token ids of the sequence format, one format for every task:
//   <bos> [<kw> 五 福 <sep> 龙 年] [<ac> 春 福] [<lenN>] <up> 上联 <down> 下联 [<hp> 横批] <eos>
// Characters follow the special tokens, most frequent first. A model trained
// with styles has the style tokens (<festive> ...) after the characters, so
// that every id of the model it was grown from stays; the sequence then reads
// <bos> <festive> [<kw> ...] ...
// A model trained with theme examples (`couplet train --examples`) has the
// <ex> token last; a real couplet of the prompt's theme may then stand before
// the prompt as context (example_index.h): <bos> [<style>] <ex> 例上联 <sep> 例下联 [<kw> ...] ...
namespace tok {
inline constexpr int kPad = 0;
inline constexpr int kUnk = 1;
inline constexpr int kBos = 2;
inline constexpr int kEos = 3;
inline constexpr int kKeywords = 4;
inline constexpr int kAcrostic = 5;
inline constexpr int kUpper = 6;
inline constexpr int kLower = 7;
inline constexpr int kHengpi = 8;
inline constexpr int kSep = 9;
inline constexpr int kLengthBase = 10;   // <len1> is kLengthBase + 0
inline constexpr int kMaxLineChars = 32; // longest line the format can state
inline constexpr int kFirstChar = kLengthBase + kMaxLineChars;

inline constexpr int lengthToken(int chars) { return kLengthBase + chars - 1; }
} // namespace tok

// Punctuation a couplet line may contain (mirrored position by position).
bool isCoupletPunctuation(char32_t c);

// Character-level vocabulary: special tokens, then single characters.
class Vocab {
public:
    Vocab();
    // Special tokens plus `characters` in the given order.
    explicit Vocab(const std::vector<char32_t>& characters);

    // One token a line, UTF-8; the special tokens first, as written by save().
    static Vocab load(const std::filesystem::path& path);
    void save(const std::filesystem::path& path) const;

    int size() const { return static_cast<int>(m_pieces.size()); }
    // Token of a character, or tok::kUnk.
    int id(char32_t c) const;
    bool contains(char32_t c) const { return m_index.count(c) != 0; }
    // The character of a token, or 0 for special tokens.
    char32_t character(int id) const;
    // Printable form: the character, or the special token's name.
    std::string piece(int id) const;

    bool isCharacter(int id) const { return id >= tok::kFirstChar && id < size() && m_chars[id] != 0; }
    bool isPunctuation(int id) const;
    bool isHan(int id) const;

    // This vocabulary with the style tokens appended (those it lacks).
    Vocab withStyleTokens() const;
    // The token of a style, or -1 when the vocabulary has none (a model trained without styles).
    int styleToken(WritingStyle style) const { return m_styleIds[static_cast<std::size_t>(style)]; }
    bool hasStyles() const { return styleToken(WritingStyle::Festive) >= 0; }

    // This vocabulary with the <ex> token appended (when it lacks it).
    Vocab withExampleToken() const;
    // The <ex> token, or -1 when the vocabulary has none (a model trained without theme examples).
    int exampleToken() const { return m_exampleId; }
    bool hasExamples() const { return m_exampleId >= 0; }

    // Characters of UTF-8 text as tokens (unknown ones as tok::kUnk).
    std::vector<int> encode(std::string_view text) const;
    // Characters of the tokens; special tokens are skipped.
    std::string decode(const std::vector<int>& ids) const;
    // Characters of `text` the vocabulary lacks, in order, without repeats.
    std::u32string unknownCharacters(std::string_view text) const;

private:
    void appendStyle(WritingStyle style);

    std::vector<std::string> m_pieces;
    std::vector<char32_t> m_chars; // 0 for special tokens
    std::unordered_map<char32_t, int> m_index;
    std::array<int, kWritingStyles.size()> m_styleIds{-1, -1, -1, -1};
    int m_exampleId = -1;
};

} // namespace couplet
