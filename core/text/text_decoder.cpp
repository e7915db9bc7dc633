#include "text_decoder.h"

#include "utf8.h"

#include <cerrno>
#include <cstdio>
#include <iconv.h>

namespace couplet {
namespace {

std::string hexByte(unsigned char b)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", b);
    return buf;
}

std::string errorText(TextEncoding encoding, std::uint64_t offset, const std::string& detail)
{
    return std::string("invalid ") + encodingName(encoding) + " text at byte offset "
        + std::to_string(offset) + ": " + detail;
}

iconv_t toIconv(void* handle) { return static_cast<iconv_t>(handle); }

} // namespace

EncodingError::EncodingError(TextEncoding encoding, std::uint64_t byteOffset,
                             const std::string& detail)
    : std::runtime_error(errorText(encoding, byteOffset, detail))
    , m_encoding(encoding)
    , m_byteOffset(byteOffset)
{
}

TextDecoder::TextDecoder(TextEncoding encoding, std::uint64_t startOffset)
    : m_encoding(encoding)
    , m_offset(startOffset)
{
    if (encoding == TextEncoding::Utf8) return;
    const iconv_t cd = iconv_open("UTF-8", encodingName(encoding));
    if (cd == reinterpret_cast<iconv_t>(-1))
        throw std::runtime_error(std::string("iconv cannot convert from ") + encodingName(encoding));
    m_iconv = cd;
}

TextDecoder::~TextDecoder()
{
    if (m_iconv) iconv_close(toIconv(m_iconv));
}

void TextDecoder::feed(std::string_view bytes, std::string& out)
{
    if (m_pending.empty()) {
        m_encoding == TextEncoding::Utf8 ? feedUtf8(bytes, out) : feedIconv(bytes, out);
        return;
    }
    std::string joined = std::move(m_pending);
    m_pending.clear();
    joined.append(bytes);
    m_encoding == TextEncoding::Utf8 ? feedUtf8(joined, out) : feedIconv(joined, out);
}

void TextDecoder::feedUtf8(std::string_view bytes, std::string& out)
{
    const std::size_t complete = utf8::completePrefix(bytes);
    const std::string_view body = bytes.substr(0, complete);
    const std::size_t bad = utf8::firstInvalid(body);
    if (bad != std::string_view::npos) {
        out.append(body.substr(0, bad));
        const std::uint64_t at = m_offset + bad;
        m_offset = at;
        throw EncodingError(m_encoding, at, "byte " + hexByte(body[bad]));
    }
    out.append(body);
    m_offset += complete;
    m_pending.assign(bytes.substr(complete));
}

void TextDecoder::feedIconv(std::string_view bytes, std::string& out)
{
    char* in = const_cast<char*>(bytes.data());
    std::size_t inLeft = bytes.size();
    const std::uint64_t base = m_offset;
    while (inLeft > 0) {
        // UTF-8 needs at most 3 bytes per UTF-16 unit or GB18030 byte pair.
        const std::size_t room = inLeft * 2 + 16;
        const std::size_t start = out.size();
        out.resize(start + room);
        char* dst = out.data() + start;
        std::size_t outLeft = room;
        const std::size_t rc = iconv(toIconv(m_iconv), &in, &inLeft, &dst, &outLeft);
        const int err = errno;
        out.resize(start + (room - outLeft));
        m_offset = base + (bytes.size() - inLeft);
        if (rc != static_cast<std::size_t>(-1)) break;
        if (err == E2BIG) continue;
        if (err == EINVAL) break;  // an unfinished character: wait for more bytes
        throw EncodingError(m_encoding, m_offset,
                            "byte " + hexByte(static_cast<unsigned char>(*in)));
    }
    m_pending.assign(in, inLeft);
}

void TextDecoder::finish()
{
    if (m_pending.empty()) return;
    throw EncodingError(m_encoding, m_offset,
                        "the file ends inside a character (byte "
                            + hexByte(static_cast<unsigned char>(m_pending[0])) + ")");
}

} // namespace couplet
