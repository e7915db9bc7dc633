#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace couplet::utf8 {

// Splits valid UTF-8 into code points; throws std::invalid_argument naming
// the byte offset of the first invalid sequence.
std::u32string decode(std::string_view text);
std::string encode(char32_t codePoint);
std::string encode(std::u32string_view codePoints);
// Splits text into characters (one code point each, as UTF-8 strings).
std::vector<std::string> characters(std::string_view text);
// Byte offset of the first invalid UTF-8 sequence, or npos when valid.
std::size_t firstInvalid(std::string_view text);
// Length of the longest prefix of `bytes` made of complete characters; the
// rest is an incomplete character still being written.
std::size_t completePrefix(std::string_view bytes);
// True for CJK unified ideographs (the Han characters a couplet is written in).
bool isHan(char32_t c);
// True for a space of any kind, including those pasted text carries that a
// reader cannot see: ASCII space, tab and line breaks, no-break, zero-width
// and full-width spaces, the Unicode line and paragraph separators, a BOM.
bool isSpace(char32_t c);
// A character as an error message shows it: visible ones quoted ("h", "，"),
// those a reader cannot see as their code point and name (U+0020 space,
// U+3000 full-width space, U+200B zero-width space, U+0009 tab, ...).
std::string describe(char32_t c);
// Code point count of valid UTF-8 text.
std::size_t length(std::string_view text);

} // namespace couplet::utf8
