// Feeds arbitrary bytes to encoding detection and the CSV reader. Besides
// crashes and sanitizer reports it checks properties: records are valid
// UTF-8 with increasing numbers and lines, errors have 1-based positions, and
// whatever was read is read back the same after writing it with the writer.

#include "csv_reader.h"
#include "csv_writer.h"
#include "text_encoding.h"
#include "utf8.h"

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Table = std::vector<std::vector<std::string>>;

void require(bool condition)
{
    if (!condition) std::abort();
}

// The first byte picks the reader's options, the rest is the file.
couplet::CsvReaderOptions optionsFrom(std::uint8_t selector)
{
    static constexpr char kDelimiters[] = {',', ';', '\t', ','};
    static constexpr std::size_t kChunks[] = {1, 2, 3, 7, 64, 4096, 65536, 5};
    couplet::CsvReaderOptions options;
    const int encoding = selector % 5;
    if (encoding > 0) options.encoding = static_cast<couplet::TextEncoding>(encoding - 1);
    options.delimiter = kDelimiters[(selector / 5) % 4];
    options.chunkBytes = kChunks[(selector / 20) % 8];
    return options;
}

// Reads everything; false when the input is not CSV.
bool readAll(const std::string& bytes, const couplet::CsvReaderOptions& options, Table& table)
{
    try {
        couplet::CsvReader reader(std::make_unique<std::istringstream>(bytes), options);
        table.push_back(reader.header());
        couplet::CsvRecord record;
        std::uint64_t lastLine = 0;
        while (reader.next(record)) {
            require(record.number == table.size());
            require(record.line > lastLine);
            lastLine = record.line;
            for (const auto& field : record.fields)
                require(couplet::utf8::firstInvalid(field) == std::string::npos);
            table.push_back(record.fields);
        }
        return true;
    } catch (const couplet::CsvError& e) {
        require(e.line() >= 1 && e.column() >= 1);
        return false;
    }
}

std::string writeAll(const Table& table, char delimiter)
{
    std::string out(couplet::kUtf8Bom);
    for (const auto& row : table) {
        if (!row.empty()) out += couplet::formatCsvRecord(row, false, delimiter);
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0) return 0;
    const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    const auto detected = couplet::detectEncoding(bytes, true);
    require(detected.bomLength <= bytes.size());

    const couplet::CsvReaderOptions options = optionsFrom(data[0]);
    Table table;
    if (!readAll(bytes, options, table)) return 0;

    couplet::CsvReaderOptions again;
    again.encoding = couplet::TextEncoding::Utf8;
    again.delimiter = options.delimiter;
    Table reread;
    require(readAll(writeAll(table, options.delimiter), again, reread));
    if (table.size() == 1 && table[0].empty()) return 0;   // empty input: nothing written
    require(reread == table);
    return 0;
}
