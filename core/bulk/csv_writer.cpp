#include "csv_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace couplet {

std::string neutralizeFormula(std::string_view cell)
{
    if (cell.empty()) return {};
    switch (cell.front()) {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r': return "'" + std::string(cell);
    default: return std::string(cell);
    }
}

std::string formatCsvRecord(const std::vector<std::string>& cells, bool neutralize, char delimiter)
{
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i > 0) out += delimiter;
        const std::string cell = neutralize ? neutralizeFormula(cells[i]) : cells[i];
        const char special[] = {delimiter, '"', '\r', '\n', '\0'};
        if (cell.find_first_of(special) == std::string::npos) {
            out += cell;
            continue;
        }
        out += '"';
        for (char c : cell) {
            if (c == '"') out += '"';
            out += c;
        }
        out += '"';
    }
    // A record of one empty field would be a blank line, which readers skip.
    if (cells.size() == 1 && cells[0].empty()) out += "\"\"";
    out += "\r\n";
    return out;
}

std::string jsonQuote(std::string_view utf8)
{
    std::string out = "\"";
    for (char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20 || c == 0x7F) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04X", c);
                out += buf;
            } else {
                out += ch;
            }
        }
    }
    out += '"';
    return out;
}

CsvWriter::CsvWriter(const std::filesystem::path& path, Mode mode, bool bom, bool neutralize)
    : m_path(path)
    , m_out(path, std::ios::binary | (mode == Mode::Append ? std::ios::app : std::ios::trunc))
    , m_neutralize(neutralize)
{
    if (!m_out)
        throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
    if (mode == Mode::Truncate && bom) write(kUtf8Bom);
}

void CsvWriter::writeRecord(const std::vector<std::string>& cells)
{
    write(formatCsvRecord(cells, m_neutralize));
}

void CsvWriter::write(std::string_view bytes)
{
    m_out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    m_out.flush();
    if (!m_out) throw std::runtime_error("cannot write " + m_path.string() + ": " + std::strerror(errno));
    m_bytes += bytes.size();
}

} // namespace couplet
