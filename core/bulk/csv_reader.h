#pragma once

#include "text_encoding.h"

#include <cstdint>
#include <filesystem>
#include <istream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace couplet {

class TextDecoder;

struct CsvRecord {
    std::uint64_t number = 0;   // 1-based among the data records (the header is not counted)
    std::uint64_t line = 0;     // physical line the record starts on, 1-based
    std::vector<std::string> fields;   // UTF-8
    bool ragged = false;        // a different number of fields than the header
};

// Input that is not CSV: where (physical line and column, both 1-based;
// columns count characters, not bytes) and why.
class CsvError : public std::runtime_error {
public:
    CsvError(std::uint64_t line, std::uint64_t column, const std::string& reason);
    std::uint64_t line() const { return m_line; }
    std::uint64_t column() const { return m_column; }
    const std::string& reason() const { return m_reason; }

private:
    std::uint64_t m_line;
    std::uint64_t m_column;
    std::string m_reason;
};

struct CsvReaderOptions {
    std::optional<TextEncoding> encoding;   // empty: detect from the first 64 KiB
    char delimiter = ',';
    std::size_t chunkBytes = 64 * 1024;     // read size; the file is never loaded whole
};

// Streaming RFC 4180 reader: quoted fields with "" escapes and embedded
// delimiters and line breaks, CRLF or LF (a lone CR also ends a line), no
// final line break needed, blank lines skipped. The first record is the
// header. Strict about quotes: a field must not go on after its closing quote.
class CsvReader {
public:
    explicit CsvReader(const std::filesystem::path& path, CsvReaderOptions options = {});
    explicit CsvReader(std::unique_ptr<std::istream> in, CsvReaderOptions options = {});
    ~CsvReader();
    CsvReader(const CsvReader&) = delete;
    CsvReader& operator=(const CsvReader&) = delete;

    const std::vector<std::string>& header() const { return m_header; }
    TextEncoding encoding() const { return m_encoding; }
    bool hadBom() const { return m_bomLength > 0; }

    // The next data record, or false at the end. Throws CsvError, and the same
    // error again on later calls.
    bool next(CsvRecord& record);
    // Reads past records so that next() returns record `number` (1-based).
    void skipTo(std::uint64_t number);

    std::uint64_t bytesRead() const { return m_bytesRead; }   // of the file, for progress
    std::uint64_t recordsRead() const { return m_records; }

private:
    void start();
    bool parseRecord(std::vector<std::string>& fields, std::uint64_t& line);
    bool readPlain(std::string& field);
    bool readQuoted(std::string& field);
    bool afterField();
    void endLine();
    int peek();
    void advance();
    bool refill();
    void appendDecoded(std::string_view bytes);
    std::string currentCharacter() const;
    [[noreturn]] void fail(std::uint64_t line, std::uint64_t column, const std::string& reason);

    std::unique_ptr<std::istream> m_in;
    CsvReaderOptions m_options;
    std::unique_ptr<TextDecoder> m_decoder;
    TextEncoding m_encoding = TextEncoding::Utf8;
    std::size_t m_bomLength = 0;
    std::vector<std::string> m_header;

    std::string m_raw;          // read buffer
    std::string m_text;         // decoded UTF-8 not yet parsed, from m_pos
    std::size_t m_pos = 0;
    bool m_inputDone = false;
    std::optional<std::string> m_encodingError;   // met after the text in m_text
    std::optional<CsvError> m_failure;

    std::uint64_t m_line = 1;
    std::uint64_t m_column = 1;
    std::uint64_t m_bytesRead = 0;
    std::uint64_t m_records = 0;
};

} // namespace couplet
