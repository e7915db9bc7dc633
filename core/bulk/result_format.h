#pragma once

#include "prompt_row.h"
#include "row_generator.h"

#include <filesystem>
#include <string>
#include <vector>

namespace couplet {

enum class OutputFormat { Csv, JsonLines };
enum class HeaderLanguage { Chinese, English };

struct OutputOptions {
    OutputFormat format = OutputFormat::Csv;
    HeaderLanguage language = HeaderLanguage::Chinese;   // CSV column names
    bool bom = true;          // UTF-8 BOM so that Excel on Windows reads UTF-8
    bool neutralize = true;   // defuse cells that Excel would run as formulas
};

// The bytes of a bulk job's output file. CSV: every input column in order,
// then 上联 下联 横批 status error model seed latency_ms (English: upper lower
// hengpi ...). JSON Lines: one object per row, input cells under "input".
class ResultFormat {
public:
    ResultFormat(std::vector<std::string> inputHeader, OutputOptions options);

    // What the file starts with: BOM and header record for CSV, nothing for JSON Lines.
    std::string header() const;
    // One finished row, line end included.
    std::string row(const PromptRow& row, const RowResult& result) const;
    std::vector<std::string> columnNames() const;
    const OutputOptions& options() const { return m_options; }

    // JSON Lines for .jsonl and .ndjson, CSV otherwise.
    static OutputFormat formatForPath(const std::filesystem::path& path);

private:
    std::string csvRow(const PromptRow& row, const RowResult& result) const;
    std::string jsonRow(const PromptRow& row, const RowResult& result) const;

    std::vector<std::string> m_inputHeader;
    std::vector<std::string> m_jsonKeys;   // input header made unique
    OutputOptions m_options;
};

} // namespace couplet
