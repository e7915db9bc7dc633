#include "utf8.h"

#include <cstdio>
#include <stdexcept>
#include <utility>

namespace couplet::utf8 {
namespace {

// Length of the sequence starting with lead byte b, or 0 if b cannot start one.
int sequenceLength(unsigned char b)
{
    if (b < 0x80) return 1;
    if (b >= 0xC2 && b <= 0xDF) return 2;
    if (b >= 0xE0 && b <= 0xEF) return 3;
    if (b >= 0xF0 && b <= 0xF4) return 4;
    return 0;
}

// Decodes one code point at text[i]; returns its length, or 0 if invalid.
int decodeAt(std::string_view text, std::size_t i, char32_t& out)
{
    const auto b0 = static_cast<unsigned char>(text[i]);
    const int n = sequenceLength(b0);
    if (n == 0 || i + n > text.size()) return 0;
    if (n == 1) {
        out = b0;
        return 1;
    }
    char32_t cp = b0 & (0x7F >> n);
    for (int k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(text[i + k]);
        if ((b & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid.
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))
        || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    out = cp;
    return n;
}

} // namespace

std::u32string decode(std::string_view text)
{
    std::u32string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        const int n = decodeAt(text, i, cp);
        if (n == 0)
            throw std::invalid_argument("invalid UTF-8 at byte " + std::to_string(i));
        out.push_back(cp);
        i += n;
    }
    return out;
}

std::string encode(char32_t c)
{
    std::string s;
    if (c < 0x80) {
        s += static_cast<char>(c);
    } else if (c < 0x800) {
        s += static_cast<char>(0xC0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += static_cast<char>(0xE0 | (c >> 12));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
}

std::string encode(std::u32string_view codePoints)
{
    std::string s;
    for (char32_t c : codePoints) s += encode(c);
    return s;
}

std::vector<std::string> characters(std::string_view text)
{
    std::vector<std::string> out;
    for (char32_t c : decode(text)) out.push_back(encode(c));
    return out;
}

std::size_t firstInvalid(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        const int n = decodeAt(text, i, cp);
        if (n == 0) return i;
        i += n;
    }
    return std::string_view::npos;
}

std::size_t completePrefix(std::string_view bytes)
{
    // Only the last three bytes can belong to an unfinished character.
    const std::size_t n = bytes.size();
    for (std::size_t back = 1; back <= 3 && back <= n; ++back) {
        const auto b = static_cast<unsigned char>(bytes[n - back]);
        if ((b & 0xC0) == 0x80) continue; // continuation byte: look further back
        const int need = sequenceLength(b);
        return need > static_cast<int>(back) ? n - back : n;
    }
    return n;
}

bool isHan(char32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF)
        || (c >= 0x20000 && c <= 0x2EBEF) || (c >= 0xF900 && c <= 0xFAFF);
}

bool isSpace(char32_t c)
{
    return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r' || c == 0xA0 || (c >= 0x2000 && c <= 0x200B)
        || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

std::string describe(char32_t c)
{
    static const std::pair<char32_t, const char*> named[] = {
        {0x09, "tab"}, {0x0A, "line feed"}, {0x0D, "carriage return"}, {0x20, "space"},
        {0xA0, "no-break space"}, {0xAD, "soft hyphen"}, {0x200B, "zero-width space"},
        {0x200C, "zero-width non-joiner"}, {0x200D, "zero-width joiner"}, {0x2028, "line separator"},
        {0x2029, "paragraph separator"}, {0x3000, "full-width space"}, {0xFEFF, "byte-order mark"},
    };
    // Spaces, then the control and format characters and private-use ones.
    const bool invisible = isSpace(c) || c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xAD
        || (c >= 0x200C && c <= 0x200F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F)
        || (c >= 0xFFF0 && c <= 0xFFFF) || (c >= 0xE000 && c <= 0xF8FF);
    if (!invisible) {
        std::string quoted = "\"";
        quoted += encode(c);
        quoted += '"';
        return quoted;
    }
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
    std::string out = code;
    for (const auto& [point, name] : named)
        if (point == c) out += std::string(" ") + name;
    return out;
}

std::size_t length(std::string_view text)
{
    return decode(text).size();
}

} // namespace couplet::utf8
