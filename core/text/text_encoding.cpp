#include "text_encoding.h"

#include "utf8.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace couplet {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr std::string_view kUtf16LeBom = "\xFF\xFE";
constexpr std::string_view kUtf16BeBom = "\xFE\xFF";
constexpr long kUtf8Evidence = 8;   // multi-byte UTF-8 characters

std::string normalisedName(std::string_view name)
{
    std::string out;
    for (char c : name) {
        if (c == '-' || c == '_' || c == ' ') continue;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

} // namespace

std::size_t bomLength(std::string_view head, TextEncoding encoding)
{
    switch (encoding) {
    case TextEncoding::Utf8: return head.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
    case TextEncoding::Utf16Le: return head.starts_with(kUtf16LeBom) ? kUtf16LeBom.size() : 0;
    case TextEncoding::Utf16Be: return head.starts_with(kUtf16BeBom) ? kUtf16BeBom.size() : 0;
    case TextEncoding::Gb18030: return 0;
    }
    return 0;
}

DetectedEncoding detectEncoding(std::string_view head, bool atEnd)
{
    for (auto e : {TextEncoding::Utf8, TextEncoding::Utf16Le, TextEncoding::Utf16Be}) {
        if (const std::size_t n = bomLength(head, e)) return {e, n};
    }
    head = head.substr(0, std::min(head.size(), kDetectionWindow));
    // The window may cut the last character in two; that is not an error.
    const std::string_view whole = atEnd ? head : head.substr(0, utf8::completePrefix(head));
    const std::size_t bad = utf8::firstInvalid(whole);
    if (bad == std::string_view::npos) return {TextEncoding::Utf8, 0};
    // Many valid multi-byte characters before a bad byte: a UTF-8 file with a
    // damaged byte, better reported as such than read as GB18030 mojibake.
    // GBK text almost never forms even two valid UTF-8 sequences in a row.
    const auto leads = std::count_if(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(bad),
                                     [](char c) { return static_cast<unsigned char>(c) >= 0xC0; });
    if (leads >= kUtf8Evidence) return {TextEncoding::Utf8, 0};
    return {TextEncoding::Gb18030, 0};
}

const char* encodingName(TextEncoding encoding)
{
    switch (encoding) {
    case TextEncoding::Utf8: return "UTF-8";
    case TextEncoding::Utf16Le: return "UTF-16LE";
    case TextEncoding::Utf16Be: return "UTF-16BE";
    case TextEncoding::Gb18030: return "GB18030";
    }
    return "UTF-8";
}

std::optional<TextEncoding> parseEncodingName(std::string_view name)
{
    const std::string n = normalisedName(name);
    if (n == "utf8" || n == "utf8bom" || n == "utf8sig") return TextEncoding::Utf8;
    if (n == "utf16le" || n == "utf16" || n == "unicode") return TextEncoding::Utf16Le;
    if (n == "utf16be") return TextEncoding::Utf16Be;
    if (n == "gb18030" || n == "gbk" || n == "gb2312" || n == "cp936" || n == "euccn"
        || n == "windows936" || n == "ansi")
        return TextEncoding::Gb18030;
    return std::nullopt;
}

} // namespace couplet
