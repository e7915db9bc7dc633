#include "csv_reader.h"

#include "text_decoder.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace couplet {
namespace {

constexpr int kEnd = -1;
// Bounds that keep a broken file (a quote that never closes) from eating memory.
constexpr std::size_t kMaxFieldBytes = 1024 * 1024;
constexpr std::size_t kMaxFields = 4096;

std::string describeError(std::uint64_t line, std::uint64_t column, const std::string& reason)
{
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + reason;
}

std::unique_ptr<std::istream> openFile(const std::filesystem::path& path)
{
    auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*in)
        throw std::runtime_error("cannot open " + path.string() + ": " + std::strerror(errno));
    return in;
}

} // namespace

CsvError::CsvError(std::uint64_t line, std::uint64_t column, const std::string& reason)
    : std::runtime_error(describeError(line, column, reason))
    , m_line(line)
    , m_column(column)
    , m_reason(reason)
{
}

CsvReader::CsvReader(const std::filesystem::path& path, CsvReaderOptions options)
    : CsvReader(openFile(path), options)
{
}

CsvReader::CsvReader(std::unique_ptr<std::istream> in, CsvReaderOptions options)
    : m_in(std::move(in))
    , m_options(options)
{
    if (m_options.chunkBytes == 0) m_options.chunkBytes = 64 * 1024;
    start();
}

CsvReader::~CsvReader() = default;

void CsvReader::start()
{
    // Detection needs a whole window, not whatever the first read returns.
    std::string head(kDetectionWindow, '\0');
    m_in->read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(m_in->gcount()));
    m_bytesRead = head.size();
    const bool atEnd = head.size() < kDetectionWindow;
    if (m_options.encoding) {
        m_encoding = *m_options.encoding;
        m_bomLength = bomLength(head, m_encoding);
    } else {
        const DetectedEncoding detected = detectEncoding(head, atEnd);
        m_encoding = detected.encoding;
        m_bomLength = detected.bomLength;
    }
    m_decoder = std::make_unique<TextDecoder>(m_encoding, m_bomLength);
    appendDecoded(std::string_view(head).substr(m_bomLength));
    std::uint64_t line = 0;
    parseRecord(m_header, line);
}

void CsvReader::appendDecoded(std::string_view bytes)
{
    try {
        if (bytes.empty()) {
            m_decoder->finish();
            m_inputDone = true;
        } else {
            m_decoder->feed(bytes, m_text);
        }
    } catch (const EncodingError& e) {
        m_encodingError = e.what();
        m_inputDone = true;
    }
}

bool CsvReader::refill()
{
    m_text.clear();
    m_pos = 0;
    m_raw.resize(m_options.chunkBytes);
    while (m_text.empty() && !m_inputDone) {
        m_in->read(m_raw.data(), static_cast<std::streamsize>(m_raw.size()));
        const auto got = static_cast<std::size_t>(m_in->gcount());
        m_bytesRead += got;
        appendDecoded(std::string_view(m_raw.data(), got));
    }
    return !m_text.empty();
}

int CsvReader::peek()
{
    if (m_pos < m_text.size()) return static_cast<unsigned char>(m_text[m_pos]);
    if (refill()) return static_cast<unsigned char>(m_text[m_pos]);
    if (m_encodingError) fail(m_line, m_column, *m_encodingError);
    return kEnd;
}

void CsvReader::advance()
{
    const auto c = static_cast<unsigned char>(m_text[m_pos++]);
    if (c == '\n' || (c == '\r' && peek() != '\n')) {
        ++m_line;
        m_column = 1;
    } else if ((c & 0xC0) != 0x80) {
        ++m_column;   // continuation bytes belong to the character before
    }
}

void CsvReader::fail(std::uint64_t line, std::uint64_t column, const std::string& reason)
{
    m_failure.emplace(line, column, reason);
    throw *m_failure;
}

std::string CsvReader::currentCharacter() const
{
    const auto lead = static_cast<unsigned char>(m_text[m_pos]);
    const std::size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    return m_text.substr(m_pos, n);
}

bool CsvReader::next(CsvRecord& record)
{
    if (m_failure) throw *m_failure;
    if (!parseRecord(record.fields, record.line)) return false;
    record.number = ++m_records;
    record.ragged = record.fields.size() != m_header.size();
    return true;
}

void CsvReader::skipTo(std::uint64_t number)
{
    CsvRecord scratch;
    while (m_records + 1 < number && next(scratch)) {
    }
}

bool CsvReader::parseRecord(std::vector<std::string>& fields, std::uint64_t& line)
{
    int c = peek();
    while (c == '\r' || c == '\n') {
        advance();
        c = peek();
    }
    if (c == kEnd) {
        fields.clear();
        return false;
    }
    line = m_line;
    std::size_t n = 0;
    for (bool more = true; more;) {
        if (n == kMaxFields) fail(m_line, m_column, "more than 4096 fields in one record");
        if (n == fields.size()) fields.emplace_back();
        std::string& field = fields[n++];
        field.clear();
        more = peek() == '"' ? readQuoted(field) : readPlain(field);
    }
    fields.resize(n);
    return true;
}

// Reads up to the delimiter or line end; true when another field follows.
bool CsvReader::readPlain(std::string& field)
{
    const std::uint64_t line = m_line, column = m_column;
    for (;;) {
        const int c = peek();
        if (c == static_cast<unsigned char>(m_options.delimiter)) {
            advance();
            return true;
        }
        if (c == '\r' || c == '\n' || c == kEnd) {
            endLine();
            return false;
        }
        // A quote inside an unquoted field is kept as text, as Excel does.
        field += static_cast<char>(c);
        advance();
        if (field.size() > kMaxFieldBytes) fail(line, column, "field longer than 1 MiB");
    }
}

bool CsvReader::readQuoted(std::string& field)
{
    const std::uint64_t line = m_line, column = m_column;
    advance();
    for (;;) {
        const int c = peek();
        if (c == kEnd)
            fail(line, column, "unclosed quote: the quoted field starting here never ends");
        advance();
        if (c == '"') {
            if (peek() != '"') break;
            advance();
        }
        field += static_cast<char>(c);
        if (field.size() > kMaxFieldBytes)
            fail(line, column, "quoted field longer than 1 MiB (is a closing quote missing?)");
    }
    return afterField();
}

// After a closing quote only a delimiter or the end of the line may come.
bool CsvReader::afterField()
{
    const int c = peek();
    if (c == static_cast<unsigned char>(m_options.delimiter)) {
        advance();
        return true;
    }
    if (c == '\r' || c == '\n' || c == kEnd) {
        endLine();
        return false;
    }
    fail(m_line, m_column,
         "unexpected \"" + currentCharacter()
             + "\" after a closing quote (a quote inside a field must be doubled)");
}

void CsvReader::endLine()
{
    if (peek() == '\r') advance();
    if (peek() == '\n') advance();
}

} // namespace couplet
