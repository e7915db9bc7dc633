#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace couplet {

// The encodings a prompt CSV arrives in. Excel and WPS on Chinese Windows save
// "CSV" as GBK, which GB18030 contains; "Unicode text" is UTF-16LE with a BOM.
enum class TextEncoding { Utf8, Utf16Le, Utf16Be, Gb18030 };

// How many bytes at the start of a file detectEncoding() looks at.
inline constexpr std::size_t kDetectionWindow = 64 * 1024;

struct DetectedEncoding {
    TextEncoding encoding = TextEncoding::Utf8;
    std::size_t bomLength = 0;   // bytes to skip before decoding
};

// Guesses the encoding of a file from its first bytes: a BOM decides; else
// text that is valid UTF-8 is UTF-8 (pure ASCII included), and so is text with
// at least 8 valid multi-byte UTF-8 characters before its first bad byte;
// else GB18030.
// `head` may end in the middle of a character unless `atEnd` (the whole file).
DetectedEncoding detectEncoding(std::string_view head, bool atEnd);

// Length of the BOM of `encoding` at the start of `head`, or 0.
std::size_t bomLength(std::string_view head, TextEncoding encoding);

// "UTF-8", "UTF-16LE", "UTF-16BE", "GB18030": also the names iconv takes.
const char* encodingName(TextEncoding encoding);

// Accepts the names users type: utf8, UTF-8, utf-16le, gbk, gb2312, cp936,
// gb18030 (case-insensitive). GBK and GB2312 map to GB18030, their superset.
std::optional<TextEncoding> parseEncodingName(std::string_view name);

} // namespace couplet
