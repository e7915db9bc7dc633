#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace couplet {

// What a CSV column means to a bulk job. Passthrough columns are copied to
// the output untouched.
// Embed is a 嵌名 name, Position where it stands (embed_position.h), Script
// the characters of the output (output_script.h), Style the couplet's style
// (writing_style.h).
enum class ColumnRole { Passthrough, Id, Keywords, Upper, Acrostic, Length, Hengpi, Year, Embed, Position, Script, Style };

inline constexpr int kNoColumn = -1;

// Which column holds each role. Built from the header (English or Chinese
// names), then adjustable by hand in the import dialog or on the command line.
class ColumnMapping {
public:
    // Recognises keywords/关键词, upper/上联, acrostic/藏头, length/字数,
    // hengpi/横批, year/年份, embed/嵌名, position/嵌名位置, script/繁简, style/风格,
    // id (and a few variants), ignoring case, spaces and a BOM.
    // The first column with a given role wins; later ones pass through.
    static ColumnMapping fromHeader(const std::vector<std::string>& header);
    // The role a header name stands for, or Passthrough.
    static ColumnRole roleForName(std::string_view name);

    // Gives `role` to `column` (kNoColumn to clear it); the column loses any
    // role it had. Passthrough cannot be assigned.
    void assign(ColumnRole role, int column);
    int column(ColumnRole role) const;
    ColumnRole roleOf(int column) const;
    // True when at least one of keywords, upper, acrostic or embed has a column.
    bool hasPromptColumn() const;

    // "keywords=0;upper=2" (0-based columns) and back, for the job journal.
    std::string toString() const;
    // Parses toString()'s form; with a header, a value may also be a column
    // name ("upper=First line") for the command line's --map. Roles not named
    // keep no column. Throws std::invalid_argument saying what is wrong.
    static ColumnMapping fromString(std::string_view text,
                                    const std::vector<std::string>& header = {});
    // Applies overrides in fromString()'s form on top of this mapping.
    void applyOverrides(std::string_view text, const std::vector<std::string>& header = {});

    static std::string_view roleName(ColumnRole role);

    bool operator==(const ColumnMapping&) const = default;

private:
    static constexpr std::size_t kRoles = 12;
    std::array<int, kRoles> m_columns{kNoColumn, kNoColumn, kNoColumn, kNoColumn, kNoColumn, kNoColumn, kNoColumn,
                                      kNoColumn, kNoColumn, kNoColumn, kNoColumn, kNoColumn};
};

} // namespace couplet
