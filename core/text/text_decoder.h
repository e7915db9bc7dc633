#pragma once

#include "text_encoding.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace couplet {

// Bytes that are not valid in the declared encoding, and where they are.
class EncodingError : public std::runtime_error {
public:
    EncodingError(TextEncoding encoding, std::uint64_t byteOffset, const std::string& detail);
    TextEncoding encoding() const { return m_encoding; }
    std::uint64_t byteOffset() const { return m_byteOffset; }   // from the start of the file

private:
    TextEncoding m_encoding;
    std::uint64_t m_byteOffset;
};

// Streams bytes of one encoding into UTF-8. Chunks may split characters
// anywhere; the unfinished tail is kept until the next feed(). UTF-8 input is
// validated and passed through, the others go through iconv.
class TextDecoder {
public:
    // `startOffset`: file offset of the first byte fed (after a skipped BOM),
    // so that errors name positions in the file.
    explicit TextDecoder(TextEncoding encoding, std::uint64_t startOffset = 0);
    ~TextDecoder();
    TextDecoder(const TextDecoder&) = delete;
    TextDecoder& operator=(const TextDecoder&) = delete;

    // Appends the UTF-8 of `bytes` to `out`. On invalid bytes it appends
    // everything decoded before them, then throws EncodingError.
    void feed(std::string_view bytes, std::string& out);
    // End of input: throws EncodingError if a character was left unfinished.
    void finish();

    TextEncoding encoding() const { return m_encoding; }
    std::uint64_t bytesConsumed() const { return m_offset; }   // file offset reached

private:
    void feedUtf8(std::string_view bytes, std::string& out);
    void feedIconv(std::string_view bytes, std::string& out);

    TextEncoding m_encoding;
    std::uint64_t m_offset;     // file offset of m_pending's first byte
    std::string m_pending;      // an unfinished character from the last chunk
    void* m_iconv = nullptr;    // iconv_t, kept out of the header
};

} // namespace couplet
