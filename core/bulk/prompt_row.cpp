#include "prompt_row.h"

#include "writing_style.h"
#include "embed_position.h"
#include "line_shape.h"
#include "spring_festival.h"
#include "utf8.h"

#include <charconv>

namespace couplet {
namespace {

constexpr std::string_view kIdeographicSpace = "\xE3\x80\x80";
constexpr std::u32string_view kDigits = U"零一二三四五六七八九";

std::string_view trim(std::string_view s)
{
    for (;;) {
        const std::size_t before = s.size();
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
            s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
            s.remove_suffix(1);
        if (s.starts_with(kIdeographicSpace)) s.remove_prefix(kIdeographicSpace.size());
        if (s.ends_with(kIdeographicSpace)) s.remove_suffix(kIdeographicSpace.size());
        if (s.size() == before) return s;
    }
}

// Value of one Chinese or full-width digit, or -1.
int digitValue(char32_t c)
{
    if (c >= U'0' && c <= U'9') return static_cast<int>(c - U'0');
    if (c >= U'０' && c <= U'９') return static_cast<int>(c - U'０');
    if (c == U'两') return 2;
    const std::size_t i = kDigits.find(c);
    return i == std::u32string_view::npos ? -1 : static_cast<int>(i);
}

// "十" = 10, "十五" = 15, "二十" = 20, "三十二" = 32.
std::optional<int> chineseTens(std::u32string_view s, std::size_t ten)
{
    const std::u32string_view left = s.substr(0, ten), right = s.substr(ten + 1);
    if (left.size() > 1 || right.size() > 1) return std::nullopt;
    const int tens = left.empty() ? 1 : digitValue(left[0]);
    const int units = right.empty() ? 0 : digitValue(right[0]);
    if (tens < 1 || units < 0) return std::nullopt;
    return tens * 10 + units;
}

std::optional<int> numberOf(std::u32string_view s)
{
    if (s.empty()) return std::nullopt;
    if (const std::size_t ten = s.find(U'十'); ten != std::u32string_view::npos)
        return chineseTens(s, ten);
    int value = 0;
    for (char32_t c : s) {
        const int d = digitValue(c);
        if (d < 0 || value > kMaxLineLength) return std::nullopt;
        value = value * 10 + d;
    }
    return value;
}

bool allHan(std::string_view text, std::string& firstOther)
{
    for (const std::string& ch : utf8::characters(text)) {
        if (!utf8::isHan(utf8::decode(ch)[0])) {
            firstOther = ch;
            return false;
        }
    }
    return true;
}

std::string cellOf(const std::vector<std::string>& cells, const ColumnMapping& mapping, ColumnRole role)
{
    const int c = mapping.column(role);
    if (c == kNoColumn || c >= static_cast<int>(cells.size())) return {};
    return std::string(trim(cells[static_cast<std::size_t>(c)]));
}

std::string fitCells(std::vector<std::string>& cells, std::size_t headerSize)
{
    if (cells.size() == headerSize) return {};
    std::string error = "the record has " + std::to_string(cells.size())
        + " fields but the header has " + std::to_string(headerSize);
    if (cells.size() > headerSize) {
        error += "; extra fields:";
        for (std::size_t i = headerSize; i < cells.size(); ++i) error += " \"" + cells[i] + "\"";
    }
    cells.resize(headerSize);
    return error;
}

std::string checkHanLine(const std::string& text, const char* what)
{
    std::string other;
    if (!allHan(text, other))
        return std::string(what) + " must be Chinese characters only; " + utf8::describe(utf8::decode(other)[0]) + " is not";
    return {};
}

// A given 上联 is Chinese characters, with marks (，、；) only between them.
std::string checkUpperLine(const std::string& text)
{
    const auto cps = utf8::decode(text);
    for (std::size_t i = 0; i < cps.size(); ++i) {
        const bool inner = i > 0 && i + 1 < cps.size() && isCoupletPunctuation(cps[i]);
        if (!utf8::isHan(cps[i]) && !inner)
            return "上联 (upper) must be Chinese characters, with punctuation only between them; "
                + utf8::describe(cps[i]) + " is not (character " + std::to_string(i + 1) + ")";
    }
    return {};
}

std::string applyUpper(GenerationSpec& spec, const std::string& upper, bool lengthGiven)
{
    spec.mode = PromptMode::Upper;
    spec.upper = upper;
    if (auto e = checkUpperLine(upper); !e.empty()) return e;
    // The length counts Han characters, as 字数 does (LineShape).
    const int n = countCharacters(utf8::decode(upper));
    if (static_cast<int>(utf8::length(upper)) > kMaxLineLength)
        return "上联 (upper) has " + std::to_string(utf8::length(upper)) + " characters and marks; at most "
            + std::to_string(kMaxLineLength) + " are allowed";
    if (lengthGiven && spec.length != 0 && spec.length != n)
        return "字数 (length) says " + std::to_string(spec.length) + " but 上联 (upper) has "
            + std::to_string(n) + " characters";
    spec.length = n;
    return {};
}

std::string applyAcrostic(GenerationSpec& spec, const std::string& acrostic)
{
    spec.mode = PromptMode::Acrostic;
    spec.acrostic = acrostic;
    if (auto e = checkHanLine(acrostic, "藏头 (acrostic)"); !e.empty()) return e;
    if (utf8::length(acrostic) != 2)
        return "藏头 (acrostic) needs two characters, one for each line; got \"" + acrostic + "\"";
    return {};
}

// 嵌名: the name, at the row's position when it gives one, else the job's.
std::string applyEmbed(GenerationSpec& spec, const std::string& name, const std::string& position)
{
    if (!position.empty()) {
        const auto at = parseEmbedPosition(position);
        if (!at) return "bad 嵌名位置 (position) \"" + position + "\": use " + embedPositionList();
        spec.embedAt = *at;
    }
    spec.mode = PromptMode::Acrostic;
    spec.acrostic = name;
    if (auto e = checkHanLine(name, "嵌名 (embed)"); !e.empty()) return e;
    if (const auto n = utf8::length(name); n != 2)
        return "嵌名 (embed) needs a two-character name, one character for each line; \"" + name + "\" has "
            + std::to_string(n) + (n > 2 ? ": for a full name such as 张德顺 give the given name (德顺)" : "");
    return embedPositionProblem(spec.embedAt, spec.length);
}

std::string buildSpec(const std::vector<std::string>& cells, const ColumnMapping& mapping,
                      GenerationSpec& spec)
{
    if (const std::string script = cellOf(cells, mapping, ColumnRole::Script); !script.empty()) {
        const auto parsed = parseOutputScript(script);
        if (!parsed) return "bad 繁简 (script) \"" + script + "\": use " + std::string(outputScriptChoices());
        spec.script = *parsed;
    }
    const std::string lengthText = cellOf(cells, mapping, ColumnRole::Length);
    if (!lengthText.empty()) {
        const auto length = parseLineLength(lengthText);
        if (!length)
            return "bad 字数 (length) \"" + lengthText + "\": use 0 (free) or 1 to "
                + std::to_string(kMaxLineLength) + ", e.g. 7 or 七言";
        spec.length = *length;
    }
    // An empty 年份 keeps the job's year (by default the coming Spring
    // Festival's); 0, none or 无 says none.
    const std::string yearText = cellOf(cells, mapping, ColumnRole::Year);
    spec.year = parseYearText(yearText, spec.year);
    if (spec.year < 0)
        return "bad 年份 (year) \"" + yearText + "\": use a year such as 2027, 0 or none (no year), or leave it empty";
    spec.hengpi = cellOf(cells, mapping, ColumnRole::Hengpi);
    if (!spec.hengpi.empty()) {
        if (auto e = checkHanLine(spec.hengpi, "横批 (hengpi)"); !e.empty()) return e;
        if (utf8::length(spec.hengpi) != 4) return "横批 (hengpi) must have four characters";
    }
    if (const std::string style = cellOf(cells, mapping, ColumnRole::Style); !style.empty()) {
        if (!parseStyle(style)) return "bad 风格 (style) \"" + style + "\": use " + styleNames();
        spec.style = style;
    }
    spec.keywords = cellOf(cells, mapping, ColumnRole::Keywords);
    const std::string upper = cellOf(cells, mapping, ColumnRole::Upper);
    const std::string acrostic = cellOf(cells, mapping, ColumnRole::Acrostic);
    const std::string embed = cellOf(cells, mapping, ColumnRole::Embed);
    std::vector<std::string> filled;
    for (const auto& [cell, name] : {std::pair{&upper, "上联 (upper)"}, {&acrostic, "藏头 (acrostic)"}, {&embed, "嵌名 (embed)"}})
        if (!cell->empty()) filled.push_back(name);
    if (filled.size() == 2) return "both " + filled[0] + " and " + filled[1] + " are filled; fill one of them";
    if (filled.size() == 3) return "上联 (upper), 藏头 (acrostic) and 嵌名 (embed) are all filled; fill one of them";
    if (!upper.empty()) return applyUpper(spec, upper, !lengthText.empty());
    if (!acrostic.empty()) {
        spec.embedAt = 1;
        return applyAcrostic(spec, acrostic);
    }
    if (!embed.empty()) return applyEmbed(spec, embed, cellOf(cells, mapping, ColumnRole::Position));
    spec.mode = PromptMode::Keywords;
    if (spec.keywords.empty())
        return "empty prompt: fill 关键词 (keywords), 上联 (upper), 藏头 (acrostic) or 嵌名 (embed)";
    return {};
}

} // namespace

std::optional<int> parseLineLength(std::string_view text)
{
    text = trim(text);
    for (std::string_view suffix : {"字联", "言", "字"}) {
        if (text.ends_with(suffix)) {
            text.remove_suffix(suffix.size());
            break;
        }
    }
    if (utf8::firstInvalid(text) != std::string_view::npos) return std::nullopt;
    const auto value = numberOf(utf8::decode(trim(text)));
    if (!value || *value > kMaxLineLength) return std::nullopt;
    return value;
}

PromptRow makePromptRow(CsvRecord record, std::size_t headerSize, const ColumnMapping& mapping,
                        const GenerationSpec& defaults, const SpecValidator& validator)
{
    PromptRow row;
    row.recordNumber = record.number;
    row.line = record.line;
    row.cells = std::move(record.fields);
    row.spec = defaults;
    row.error = fitCells(row.cells, headerSize);
    if (row.error.empty()) row.error = buildSpec(row.cells, mapping, row.spec);
    if (row.error.empty() && validator) row.error = validator(row.spec);
    return row;
}

} // namespace couplet
