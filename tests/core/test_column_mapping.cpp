#include "column_mapping.h"
#include "embed_position.h"
#include "prompt_row.h"

#include <check.h>

using namespace couplet;

namespace {

const std::vector<std::string> kHeader = {"id", "关键词", "上联", "藏头", "字数", "横批", "备注"};

PromptRow rowOf(std::vector<std::string> cells, const SpecValidator& validator = {})
{
    CsvRecord record;
    record.number = 5;
    record.line = 9;
    record.fields = std::move(cells);
    const ColumnMapping mapping = ColumnMapping::fromHeader(kHeader);
    return makePromptRow(std::move(record), kHeader.size(), mapping, GenerationSpec{}, validator);
}

} // namespace

COUPLET_TEST(mapsChineseHeaders)
{
    const ColumnMapping m = ColumnMapping::fromHeader(kHeader);
    CHECK_EQ(m.column(ColumnRole::Id), 0);
    CHECK_EQ(m.column(ColumnRole::Keywords), 1);
    CHECK_EQ(m.column(ColumnRole::Upper), 2);
    CHECK_EQ(m.column(ColumnRole::Acrostic), 3);
    CHECK_EQ(m.column(ColumnRole::Length), 4);
    CHECK_EQ(m.column(ColumnRole::Hengpi), 5);
    CHECK(m.roleOf(6) == ColumnRole::Passthrough);
}

COUPLET_TEST(mapsEnglishHeadersIgnoringCaseSpacesAndBom)
{
    const ColumnMapping m = ColumnMapping::fromHeader(
        {"\xEF\xBB\xBF" "ID", " Keywords ", "Upper Line", "note", "LENGTH", "hengpi", "Acrostic"});
    CHECK_EQ(m.column(ColumnRole::Id), 0);
    CHECK_EQ(m.column(ColumnRole::Keywords), 1);
    CHECK_EQ(m.column(ColumnRole::Upper), 2);
    CHECK_EQ(m.column(ColumnRole::Length), 4);
    CHECK_EQ(m.column(ColumnRole::Hengpi), 5);
    CHECK_EQ(m.column(ColumnRole::Acrostic), 6);
    CHECK(m.roleOf(3) == ColumnRole::Passthrough);
    CHECK(m.hasPromptColumn());
    CHECK(!ColumnMapping::fromHeader({"name", "note"}).hasPromptColumn());
}

COUPLET_TEST(firstOfTwoSameRoleColumnsWins)
{
    const ColumnMapping m = ColumnMapping::fromHeader({"上联", "upper"});
    CHECK_EQ(m.column(ColumnRole::Upper), 0);
    CHECK(m.roleOf(1) == ColumnRole::Passthrough);
}

COUPLET_TEST(manualMappingOverridesAndRoundTrips)
{
    ColumnMapping m = ColumnMapping::fromHeader({"主题", "text", "n"});
    CHECK_EQ(m.column(ColumnRole::Keywords), 0);
    m.applyOverrides("upper=text;length=2", {"主题", "text", "n"});
    CHECK_EQ(m.column(ColumnRole::Upper), 1);
    CHECK_EQ(m.column(ColumnRole::Length), 2);
    m.assign(ColumnRole::Keywords, 1);   // takes column 1 away from upper
    CHECK_EQ(m.column(ColumnRole::Upper), kNoColumn);
    CHECK_EQ(ColumnMapping::fromString(m.toString()), m);
    CHECK_EQ(m.toString(), std::string("keywords=1;length=2"));
    CHECK_THROWS(ColumnMapping::fromString("colour=1"), "bad column mapping");
    CHECK_THROWS(ColumnMapping::fromString("upper=missing", {"a"}), "no column \"missing\"");
    CHECK_EQ(ColumnMapping::fromString("上联=3").column(ColumnRole::Upper), 3);
}

COUPLET_TEST(parsesLineLengths)
{
    CHECK(parseLineLength("7") == 7);
    CHECK(parseLineLength(" 0 ") == 0);
    CHECK(parseLineLength("七") == 7);
    CHECK(parseLineLength("七言") == 7);
    CHECK(parseLineLength("5言") == 5);
    CHECK(parseLineLength("９字") == 9);
    CHECK(parseLineLength("十一") == 11);
    CHECK(parseLineLength("二十") == 20);
    CHECK(parseLineLength("三十二") == 32);
    CHECK(parseLineLength("32") == 32);
    CHECK(!parseLineLength("33").has_value());
    CHECK(!parseLineLength("三十三").has_value());
    CHECK(!parseLineLength("-1").has_value());
    CHECK(!parseLineLength("seven").has_value());
    CHECK(!parseLineLength("").has_value());
}

COUPLET_TEST(modeFollowsTheFilledCell)
{
    const PromptRow k = rowOf({"1", " 五福 临门 ", "", "", "5", "", "x"});
    CHECK(k.error.empty());
    CHECK(k.spec.mode == PromptMode::Keywords);
    CHECK_EQ(k.spec.keywords, std::string("五福 临门"));
    CHECK_EQ(k.spec.length, 5);
    CHECK_EQ(k.recordNumber, std::uint64_t(5));
    CHECK_EQ(k.line, std::uint64_t(9));

    const PromptRow u = rowOf({"2", "福", "春回大地千山秀", "", "", "万象更新", ""});
    CHECK(u.error.empty());
    CHECK(u.spec.mode == PromptMode::Upper);
    CHECK_EQ(u.spec.length, 7);
    CHECK_EQ(u.spec.hengpi, std::string("万象更新"));

    const PromptRow a = rowOf({"3", "", "", "龙腾", "七言", "", ""});
    CHECK(a.error.empty());
    CHECK(a.spec.mode == PromptMode::Acrostic);
    CHECK_EQ(a.spec.acrostic, std::string("龙腾"));
    CHECK_EQ(a.spec.length, 7);
}

// 嵌名: a name column and a position column (number, name or pinyin); a row
// without a position takes the job's (defaults.embedAt).
COUPLET_TEST(embedsTheNameColumnAtTheRowsPosition)
{
    const std::vector<std::string> header = {"id", "嵌名", "嵌名位置", "字数"};
    const ColumnMapping mapping = ColumnMapping::fromHeader(header);
    CHECK_EQ(mapping.column(ColumnRole::Embed), 1);
    CHECK_EQ(mapping.column(ColumnRole::Position), 2);
    CHECK(mapping.hasPromptColumn());
    CHECK(ColumnMapping::fromString(mapping.toString()) == mapping);
    CHECK_EQ(ColumnMapping::fromHeader({"Embed", "Position"}).column(ColumnRole::Position), 1);
    GenerationSpec defaults;
    defaults.embedAt = 3;
    const auto row = [&](std::vector<std::string> cells) {
        CsvRecord record;
        record.fields = std::move(cells);
        return makePromptRow(std::move(record), header.size(), mapping, defaults);
    };
    const PromptRow swallow = row({"1", "德顺", "燕颔格", "7"});
    CHECK(swallow.error.empty());
    CHECK(swallow.spec.mode == PromptMode::Acrostic);
    CHECK_EQ(swallow.spec.acrostic, std::string("德顺"));
    CHECK_EQ(swallow.spec.embedAt, 2);
    CHECK_EQ(row({"2", "德顺", "last", "5"}).spec.embedAt, kEmbedLast);
    CHECK_EQ(row({"3", "德顺", "", "5"}).spec.embedAt, 3);
    CHECK(row({"4", "德顺", "鹤膝", "5"}).error.find("positions that fit are 1 鹤顶格") != std::string::npos);
    CHECK(row({"5", "德顺", "腰", "7"}).error.find("bad 嵌名位置") != std::string::npos);
    CHECK(row({"6", "张德顺", "2", "7"}).error.find("德顺") != std::string::npos);
    CHECK(row({"7", "德", "2", "7"}).error.find("two-character name") != std::string::npos);
    // The 藏头 column stays position 1 whatever the job's default.
    const std::vector<std::string> both = {"藏头", "嵌名"};
    CsvRecord record;
    record.fields = {"春福", ""};
    const PromptRow head = makePromptRow(std::move(record), 2, ColumnMapping::fromHeader(both), defaults);
    CHECK_EQ(head.spec.embedAt, 1);
    record.fields = {"春福", "德顺"};
    CHECK(makePromptRow(std::move(record), 2, ColumnMapping::fromHeader(both), defaults).error.find("both") != std::string::npos);
}

// 繁简: each row's script, else the job's.
COUPLET_TEST(readsTheScriptColumn)
{
    const std::vector<std::string> header = {"关键词", "繁简"};
    const ColumnMapping mapping = ColumnMapping::fromHeader(header);
    CHECK_EQ(mapping.column(ColumnRole::Script), 1);
    const auto row = [&](std::vector<std::string> cells) {
        CsvRecord record;
        record.fields = std::move(cells);
        return makePromptRow(std::move(record), header.size(), mapping, GenerationSpec{});
    };
    CHECK(row({"五福", "繁体"}).spec.script == OutputScript::Traditional);
    CHECK(row({"五福", "HK"}).spec.script == OutputScript::HongKong);
    CHECK(row({"五福", ""}).spec.script == OutputScript::Simplified);
    CHECK(row({"五福", "火星文"}).error.find("bad 繁简 (script)") != std::string::npos);
}

// A length counts Han characters: a 九言 上联 may carry its mark, which is
// not counted, in the middle but not at either end.
COUPLET_TEST(aGivenUpperLineCountsItsHanCharacters)
{
    const PromptRow nine = rowOf({"1", "", "春风送暖，万户喜迎新", "", "九言", "", ""});
    CHECK(nine.error.empty());
    CHECK(nine.spec.mode == PromptMode::Upper);
    CHECK_EQ(nine.spec.length, 9);
    CHECK_EQ(rowOf({"1", "", "春风送暖，万户喜迎新", "", "", "", ""}).spec.length, 9);
    CHECK(rowOf({"1", "", "春风送暖，万户喜迎新", "", "10", "", ""}).error.find("has 9 characters") != std::string::npos);
    CHECK(rowOf({"1", "", "，春风送暖万户喜迎新", "", "", "", ""}).error.find("character 1") != std::string::npos);
    CHECK(rowOf({"1", "", "春风送暖万户喜迎新，", "", "", "", ""}).error.find("only between") != std::string::npos);
}

// 年份: empty keeps the job's year, a year sets it, 0 / none / 无 says none.
COUPLET_TEST(aYearColumnSetsOrClearsTheYear)
{
    const std::vector<std::string> header = {"关键词", "年份"};
    const ColumnMapping mapping = ColumnMapping::fromHeader(header);
    CHECK_EQ(mapping.column(ColumnRole::Year), 1);
    GenerationSpec defaults;
    defaults.year = 2027;
    const auto yearOf = [&](const std::string& cell) {
        CsvRecord record;
        record.fields = {"开业", cell};
        return makePromptRow(std::move(record), header.size(), mapping, defaults);
    };
    CHECK_EQ(yearOf("").spec.year, 2027);
    CHECK_EQ(yearOf("2028").spec.year, 2028);
    CHECK_EQ(yearOf("0").spec.year, 0);
    CHECK_EQ(yearOf("none").spec.year, 0);
    CHECK_EQ(yearOf("无").spec.year, 0);
    CHECK(yearOf("羊年").error.find("bad 年份") != std::string::npos);
    CHECK(yearOf("-5").error.find("bad 年份") != std::string::npos);
}

COUPLET_TEST(rejectsUnusableRowsWithAReason)
{
    CHECK(rowOf({"1", "", "", "", "", "", "note"}).error.find("empty prompt") != std::string::npos);
    CHECK(rowOf({"1", "春", "", "", "abc", "", ""}).error.find("bad 字数") != std::string::npos);
    CHECK(rowOf({"1", "春", "", "", "40", "", ""}).error.find("bad 字数") != std::string::npos);
    CHECK(rowOf({"1", "", "春回a地", "", "", "", ""}).error.find("\"a\" is not") != std::string::npos);
    CHECK(rowOf({"1", "", "春回大地", "", "5", "", ""}).error.find("says 5") != std::string::npos);
    CHECK(rowOf({"1", "", "春回大地", "龙腾", "", "", ""}).error.find("both") != std::string::npos);
    CHECK(rowOf({"1", "", "", "龙", "", "", ""}).error.find("two characters") != std::string::npos);
    CHECK(rowOf({"1", "春", "", "", "", "万象", ""}).error.find("four") != std::string::npos);
}

COUPLET_TEST(raggedRowsKeepTheirCellsAndGetAnError)
{
    const PromptRow shortRow = rowOf({"1", "春"});
    CHECK_EQ(shortRow.cells.size(), kHeader.size());
    CHECK(shortRow.error.find("2 fields but the header has 7") != std::string::npos);
    const PromptRow longRow = rowOf({"1", "春", "", "", "", "", "", "extra"});
    CHECK_EQ(longRow.cells.size(), kHeader.size());
    CHECK(longRow.error.find("\"extra\"") != std::string::npos);
}

COUPLET_TEST(validatorHookRunsOnGoodRowsOnly)
{
    int calls = 0;
    const SpecValidator validator = [&](const GenerationSpec& spec) {
        ++calls;
        return spec.keywords == "①" ? std::string("unknown character ①") : std::string();
    };
    CHECK_EQ(rowOf({"1", "①", "", "", "", "", ""}, validator).error, std::string("unknown character ①"));
    CHECK(rowOf({"1", "福", "", "", "", "", ""}, validator).error.empty());
    CHECK(!rowOf({"1", "", "", "", "", "", ""}, validator).error.empty());
    CHECK_EQ(calls, 2);
}

// A 风格/style column asks each row for a style; an unknown one is the row's error.
COUPLET_TEST(aStyleColumnSetsTheRowsStyle)
{
    const std::vector<std::string> header = {"关键词", "风格"};
    const ColumnMapping m = ColumnMapping::fromHeader(header);
    CHECK_EQ(m.column(ColumnRole::Style), 1);
    CHECK_EQ(ColumnMapping::fromString(m.toString()), m);
    CHECK_EQ(ColumnMapping::fromString("keywords=0;style=1").column(ColumnRole::Style), 1);
    auto row = [&](const std::string& style) {
        CsvRecord record;
        record.fields = {"五福", style};
        GenerationSpec defaults;
        defaults.style = "modern";
        return makePromptRow(std::move(record), header.size(), m, defaults, {});
    };
    CHECK_EQ(row("verse").spec.style, std::string("verse"));
    CHECK_EQ(row("").spec.style, std::string("modern")); // the job's default
    CHECK(row("autumn").error.find("bad 风格 (style) \"autumn\"") != std::string::npos);
}
