#pragma once

#include "column_mapping.h"
#include "csv_reader.h"
#include "generation_spec.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace couplet {

inline constexpr int kMaxLineLength = 32;

// One input record turned into a generation request.
struct PromptRow {
    std::uint64_t recordNumber = 0;   // CsvRecord::number
    std::uint64_t line = 0;           // physical line it starts on
    std::vector<std::string> cells;   // exactly one per header column
    GenerationSpec spec;
    std::string error;                // empty: ready to generate
};

// A later check of a spec that looked fine here, e.g. CoupletModel::validate
// for characters outside the vocabulary; returns the problem or "".
using SpecValidator = std::function<std::string(const GenerationSpec&)>;

// Characters per line from a cell: "7", "７", "七", "七言", "7言", "5字", "十一";
// "0" is free length. Empty optional when the text is none of these or the
// number is above kMaxLineLength.
std::optional<int> parseLineLength(std::string_view text);

// Builds the row: picks the mode from which cell is filled (上联 -> Upper,
// else 藏头 -> Acrostic at position 1, else 嵌名 -> Acrostic at the row's
// 嵌名位置 or the defaults' embedAt, else Keywords), fills the spec over
// `defaults`, and sets `error` for unusable input. `validator` runs only on rows that pass.
PromptRow makePromptRow(CsvRecord record, std::size_t headerSize, const ColumnMapping& mapping,
                        const GenerationSpec& defaults, const SpecValidator& validator = {});

} // namespace couplet
