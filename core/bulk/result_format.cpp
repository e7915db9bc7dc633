#include "result_format.h"

#include "csv_writer.h"
#include "script_converter.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

namespace couplet {
namespace {

std::string formatLatency(double ms)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", ms);
    return buf;
}

// JSON objects with repeated keys are legal but lossy in most parsers.
std::vector<std::string> uniqueKeys(const std::vector<std::string>& header)
{
    std::set<std::string> seen;
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < header.size(); ++i) {
        std::string key = header[i].empty() ? "column" + std::to_string(i + 1) : header[i];
        for (int n = 2; seen.count(key) > 0; ++n) key = header[i] + "_" + std::to_string(n);
        seen.insert(key);
        keys.push_back(key);
    }
    return keys;
}

} // namespace

std::string_view rowStatusName(RowStatus status)
{
    switch (status) {
    case RowStatus::Ok: return "ok";
    case RowStatus::Invalid: return "invalid";
    case RowStatus::Failed: return "failed";
    }
    return "failed";
}

RowStatus rowStatusFromName(std::string_view name)
{
    if (name == "ok") return RowStatus::Ok;
    if (name == "invalid") return RowStatus::Invalid;
    return RowStatus::Failed;
}

ResultFormat::ResultFormat(std::vector<std::string> inputHeader, OutputOptions options)
    : m_inputHeader(std::move(inputHeader))
    , m_jsonKeys(uniqueKeys(m_inputHeader))
    , m_options(options)
{
}

std::vector<std::string> ResultFormat::columnNames() const
{
    std::vector<std::string> names = m_inputHeader;
    if (m_options.language == HeaderLanguage::Chinese)
        names.insert(names.end(), {"上联", "下联", "横批"});
    else
        names.insert(names.end(), {"upper", "lower", "hengpi"});
    names.insert(names.end(), {"status", "error", "model", "seed", "latency_ms"});
    return names;
}

std::string ResultFormat::header() const
{
    if (m_options.format == OutputFormat::JsonLines) return {};
    std::string out = m_options.bom ? std::string(kUtf8Bom) : std::string();
    return out + formatCsvRecord(columnNames(), m_options.neutralize);
}

std::string ResultFormat::row(const PromptRow& row, const RowResult& result) const
{
    return m_options.format == OutputFormat::Csv ? csvRow(row, result) : jsonRow(row, result);
}

std::string ResultFormat::csvRow(const PromptRow& row, const RowResult& result) const
{
    std::vector<std::string> cells = row.cells;
    cells.resize(m_inputHeader.size());
    const bool ok = result.status == RowStatus::Ok;
    const Couplet couplet = ok ? inScript(result.couplet, row.spec.script) : Couplet{};
    cells.insert(cells.end(), {couplet.upper, couplet.lower, couplet.hengpi,
                               std::string(rowStatusName(result.status)), result.error,
                               result.model,
                               result.couplet.seed ? std::to_string(result.couplet.seed) : "",
                               formatLatency(result.latencyMs)});
    return formatCsvRecord(cells, m_options.neutralize);
}

std::string ResultFormat::jsonRow(const PromptRow& row, const RowResult& result) const
{
    std::string out = "{\"record\":" + std::to_string(row.recordNumber)
        + ",\"line\":" + std::to_string(row.line) + ",\"input\":{";
    for (std::size_t i = 0; i < m_jsonKeys.size(); ++i) {
        if (i > 0) out += ',';
        out += jsonQuote(m_jsonKeys[i]) + ":" + jsonQuote(i < row.cells.size() ? row.cells[i] : "");
    }
    const bool ok = result.status == RowStatus::Ok;
    const Couplet couplet = ok ? inScript(result.couplet, row.spec.script) : Couplet{};
    out += "},\"upper\":" + jsonQuote(couplet.upper);
    out += ",\"lower\":" + jsonQuote(couplet.lower);
    out += ",\"hengpi\":" + jsonQuote(couplet.hengpi);
    out += ",\"status\":" + jsonQuote(rowStatusName(result.status));
    out += ",\"error\":" + jsonQuote(result.error);
    out += ",\"model\":" + jsonQuote(result.model);
    out += ",\"seed\":" + std::to_string(result.couplet.seed);
    out += ",\"latency_ms\":" + formatLatency(result.latencyMs) + "}\n";
    return out;
}

OutputFormat ResultFormat::formatForPath(const std::filesystem::path& path)
{
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".jsonl" || ext == ".ndjson" ? OutputFormat::JsonLines : OutputFormat::Csv;
}

} // namespace couplet
