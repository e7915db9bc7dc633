#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace couplet {

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// OWASP "CSV injection": a cell starting with = + - @ tab or CR is a formula
// to Excel; a leading single quote makes it text.
std::string neutralizeFormula(std::string_view cell);
// One RFC 4180 record ending in CRLF (what Excel expects); a field is quoted
// when it holds the delimiter, a quote, CR or LF.
std::string formatCsvRecord(const std::vector<std::string>& cells, bool neutralize = true,
                            char delimiter = ',');
// A JSON string literal with its quotes; UTF-8 is kept as is.
std::string jsonQuote(std::string_view utf8);

// Writes CSV records to a file, flushing each one, so that what is on disk
// is always whole records (an export can be stopped at any point).
class CsvWriter {
public:
    enum class Mode { Truncate, Append };
    // Truncate writes the BOM (when asked) first; Append never does.
    CsvWriter(const std::filesystem::path& path, Mode mode = Mode::Truncate, bool bom = true,
              bool neutralize = true);
    void writeRecord(const std::vector<std::string>& cells);
    std::uint64_t bytesWritten() const { return m_bytes; }

private:
    void write(std::string_view bytes);

    std::filesystem::path m_path;
    std::ofstream m_out;
    bool m_neutralize;
    std::uint64_t m_bytes = 0;
};

} // namespace couplet
