#include "column_mapping.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace couplet {
namespace {

struct RoleAlias {
    ColumnRole role;
    std::string_view name;   // normalised: lower case, no spaces, '_' or '-'
};

constexpr RoleAlias kAliases[] = {
    {ColumnRole::Id, "id"},           {ColumnRole::Id, "编号"},
    {ColumnRole::Id, "序号"},         {ColumnRole::Keywords, "keywords"},
    {ColumnRole::Keywords, "keyword"}, {ColumnRole::Keywords, "关键词"},
    {ColumnRole::Keywords, "关键字"}, {ColumnRole::Keywords, "主题"},
    {ColumnRole::Upper, "upper"},     {ColumnRole::Upper, "upperline"},
    {ColumnRole::Upper, "上联"},      {ColumnRole::Acrostic, "acrostic"},
    {ColumnRole::Acrostic, "藏头"},   {ColumnRole::Acrostic, "藏头字"},
    {ColumnRole::Length, "length"},   {ColumnRole::Length, "len"},
    {ColumnRole::Length, "字数"},     {ColumnRole::Length, "长度"},
    {ColumnRole::Hengpi, "hengpi"},   {ColumnRole::Hengpi, "横批"},
    {ColumnRole::Year, "year"},       {ColumnRole::Year, "年份"},
    {ColumnRole::Embed, "embed"},     {ColumnRole::Embed, "嵌名"},
    {ColumnRole::Embed, "embedname"}, {ColumnRole::Position, "position"},
    {ColumnRole::Position, "embedat"}, {ColumnRole::Position, "嵌名位置"},
    {ColumnRole::Position, "位置"},   {ColumnRole::Position, "格"},
    {ColumnRole::Script, "script"},   {ColumnRole::Script, "繁简"},
    {ColumnRole::Script, "简繁"},     {ColumnRole::Style, "style"},
    {ColumnRole::Style, "风格"},
};

constexpr std::string_view kRoleNames[] = {"passthrough", "id",     "keywords", "upper",    "acrostic", "length",
                                           "hengpi",      "year",   "embed",    "position", "script",   "style"};

// Drops a BOM, ASCII and ideographic spaces, '_' and '-'; lower-cases ASCII.
std::string normalise(std::string_view name)
{
    constexpr std::string_view kBom = "\xEF\xBB\xBF", kIdeographicSpace = "\xE3\x80\x80";
    std::string out;
    for (std::size_t i = 0; i < name.size();) {
        const std::string_view rest = name.substr(i);
        if (rest.starts_with(kBom) || rest.starts_with(kIdeographicSpace)) {
            i += 3;
            continue;
        }
        const auto c = static_cast<unsigned char>(name[i++]);
        if (std::isspace(c) || c == '_' || c == '-') continue;
        out += static_cast<char>(std::tolower(c));
    }
    return out;
}

std::optional<ColumnRole> roleFromName(std::string_view name)
{
    const std::string n = normalise(name);
    for (std::size_t r = 0; r < std::size(kRoleNames); ++r) {
        if (kRoleNames[r] == n) return static_cast<ColumnRole>(r);
    }
    const ColumnRole alias = ColumnMapping::roleForName(name);
    if (alias != ColumnRole::Passthrough) return alias;
    return std::nullopt;
}

int columnFromText(std::string_view value, const std::vector<std::string>& header)
{
    int column = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), column);
    if (ec == std::errc() && end == value.data() + value.size() && column >= kNoColumn)
        return column;
    const std::string wanted = normalise(value);
    for (std::size_t c = 0; c < header.size(); ++c) {
        if (normalise(header[c]) == wanted) return static_cast<int>(c);
    }
    throw std::invalid_argument("no column \"" + std::string(value) + "\" in the header");
}

} // namespace

ColumnRole ColumnMapping::roleForName(std::string_view name)
{
    const std::string n = normalise(name);
    for (const auto& alias : kAliases) {
        if (alias.name == n) return alias.role;
    }
    return ColumnRole::Passthrough;
}

ColumnMapping ColumnMapping::fromHeader(const std::vector<std::string>& header)
{
    ColumnMapping mapping;
    for (std::size_t c = 0; c < header.size(); ++c) {
        const ColumnRole role = roleForName(header[c]);
        if (role != ColumnRole::Passthrough && mapping.column(role) == kNoColumn)
            mapping.assign(role, static_cast<int>(c));
    }
    return mapping;
}

void ColumnMapping::assign(ColumnRole role, int column)
{
    if (role == ColumnRole::Passthrough)
        throw std::invalid_argument("passthrough is not a role a column can be given");
    if (column != kNoColumn) {
        for (int& c : m_columns) {
            if (c == column) c = kNoColumn;
        }
    }
    m_columns[static_cast<std::size_t>(role)] = column;
}

int ColumnMapping::column(ColumnRole role) const
{
    return m_columns[static_cast<std::size_t>(role)];
}

ColumnRole ColumnMapping::roleOf(int column) const
{
    if (column == kNoColumn) return ColumnRole::Passthrough;
    const auto it = std::find(m_columns.begin(), m_columns.end(), column);
    return it == m_columns.end() ? ColumnRole::Passthrough
                                 : static_cast<ColumnRole>(it - m_columns.begin());
}

bool ColumnMapping::hasPromptColumn() const
{
    return column(ColumnRole::Keywords) != kNoColumn || column(ColumnRole::Upper) != kNoColumn
        || column(ColumnRole::Acrostic) != kNoColumn || column(ColumnRole::Embed) != kNoColumn;
}

std::string_view ColumnMapping::roleName(ColumnRole role)
{
    return kRoleNames[static_cast<std::size_t>(role)];
}

std::string ColumnMapping::toString() const
{
    std::string out;
    for (std::size_t r = 1; r < kRoles; ++r) {
        if (m_columns[r] == kNoColumn) continue;
        if (!out.empty()) out += ';';
        out += std::string(kRoleNames[r]) + "=" + std::to_string(m_columns[r]);
    }
    return out;
}

ColumnMapping ColumnMapping::fromString(std::string_view text,
                                        const std::vector<std::string>& header)
{
    ColumnMapping mapping;
    mapping.applyOverrides(text, header);
    return mapping;
}

void ColumnMapping::applyOverrides(std::string_view text, const std::vector<std::string>& header)
{
    while (!text.empty()) {
        const std::size_t end = std::min(text.find_first_of(";,"), text.size());
        const std::string_view item = text.substr(0, end);
        text.remove_prefix(std::min(end + 1, text.size()));
        if (item.empty()) continue;
        const std::size_t eq = item.find('=');
        const auto role = eq == std::string_view::npos ? std::nullopt : roleFromName(item.substr(0, eq));
        if (!role || *role == ColumnRole::Passthrough)
            throw std::invalid_argument("bad column mapping \"" + std::string(item)
                                        + "\"; expected role=column with a role among id, "
                                          "keywords, upper, acrostic, embed, position, length, hengpi, year, script, style");
        assign(*role, columnFromText(item.substr(eq + 1), header));
    }
}

} // namespace couplet
