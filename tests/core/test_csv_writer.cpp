#include "csv_reader.h"
#include "csv_writer.h"
#include "result_format.h"

#include "csv_test_util.h"

#include <check.h>

#include <nlohmann/json.hpp>

using namespace couplet;

COUPLET_TEST(neutralizesFormulaCells)
{
    CHECK_EQ(neutralizeFormula("=1+2"), std::string("'=1+2"));
    CHECK_EQ(neutralizeFormula("+86 123"), std::string("'+86 123"));
    CHECK_EQ(neutralizeFormula("-5"), std::string("'-5"));
    CHECK_EQ(neutralizeFormula("@SUM(A1)"), std::string("'@SUM(A1)"));
    CHECK_EQ(neutralizeFormula("\tx"), std::string("'\tx"));
    CHECK_EQ(neutralizeFormula("\rx"), std::string("'\rx"));
    CHECK_EQ(neutralizeFormula("五福=临门"), std::string("五福=临门"));
    CHECK_EQ(neutralizeFormula(""), std::string(""));
}

COUPLET_TEST(quotesOnlyWhenNeeded)
{
    CHECK_EQ(formatCsvRecord({"a", "b c", "春"}), std::string("a,b c,春\r\n"));
    CHECK_EQ(formatCsvRecord({"a,b", "say \"hi\"", "x\ny"}),
             std::string("\"a,b\",\"say \"\"hi\"\"\",\"x\ny\"\r\n"));
    CHECK_EQ(formatCsvRecord({"=HYPERLINK(\"x\")"}), std::string("\"'=HYPERLINK(\"\"x\"\")\"\r\n"));
    CHECK_EQ(formatCsvRecord({"=1"}, false), std::string("=1\r\n"));
    CHECK_EQ(formatCsvRecord({""}), std::string("\"\"\r\n"));
}

COUPLET_TEST(escapesJson)
{
    CHECK_EQ(jsonQuote("春\"\\\n\x01"), std::string("\"春\\\"\\\\\\n\\u0001\""));
}

COUPLET_TEST(writerOutputReadsBackTheSame)
{
    couplet::test::TempDir dir;
    const std::vector<std::vector<std::string>> rows = {
        {"关键词", "note", "empty"},
        {"五福,临门", "line1\r\nline2", ""},
        {"say \"hi\"", "\"", ","},
        {"春", "x\ny", "  spaced  "},
    };
    {
        CsvWriter writer(dir / "out.csv", CsvWriter::Mode::Truncate, true, false);
        for (const auto& r : rows) writer.writeRecord(r);
    }
    const std::string bytes = couplet::test::readFile(dir / "out.csv");
    CHECK(bytes.starts_with(kUtf8Bom));
    CsvReader reader(dir / "out.csv");
    CHECK(reader.header() == rows[0]);
    CsvRecord r;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        CHECK(reader.next(r));
        CHECK(r.fields == rows[i]);
        CHECK(!r.ragged);
    }
    CHECK(!reader.next(r));
}

COUPLET_TEST(appendModeAddsWithoutASecondBom)
{
    couplet::test::TempDir dir;
    CsvWriter(dir / "a.csv").writeRecord({"h"});
    CsvWriter(dir / "a.csv", CsvWriter::Mode::Append).writeRecord({"=x"});
    CHECK_EQ(couplet::test::readFile(dir / "a.csv"), std::string(kUtf8Bom) + "h\r\n'=x\r\n");
}

COUPLET_TEST(resultCsvHasInputColumnsThenResults)
{
    ResultFormat format({"id", "关键词"}, OutputOptions{});
    const std::string header = format.header();
    CHECK_EQ(header, std::string(kUtf8Bom) + "id,关键词,上联,下联,横批,status,error,model,seed,latency_ms\r\n");
    PromptRow row;
    row.recordNumber = 3;
    row.cells = {"7", "=五福"};
    RowResult result;
    result.couplet = {"春回大地", "福满人间", "万象更新", -1.5, 42, {}, 0, 0};
    result.model = "tiny";
    result.latencyMs = 12.25;
    CHECK_EQ(format.row(row, result),
             std::string("7,'=五福,春回大地,福满人间,万象更新,ok,,tiny,42,12.2\r\n"));
    result.status = RowStatus::Failed;
    result.error = "out of memory";
    CHECK_EQ(format.row(row, result), std::string("7,'=五福,,,,failed,out of memory,tiny,42,12.2\r\n"));

    OutputOptions english;
    english.language = HeaderLanguage::English;
    english.bom = false;
    CHECK_EQ(ResultFormat({"k"}, english).header(),
             std::string("k,upper,lower,hengpi,status,error,model,seed,latency_ms\r\n"));
}

COUPLET_TEST(resultJsonLinesParse)
{
    OutputOptions options;
    options.format = OutputFormat::JsonLines;
    ResultFormat format({"k", "k", "note"}, options);
    CHECK(format.header().empty());
    PromptRow row;
    row.recordNumber = 8;
    row.line = 10;
    row.cells = {"五福", "dup", "a \"quoted\"\nnote"};
    RowResult result;
    result.couplet = {"春回大地", "福满人间", "万象更新", 0, 7, {}, 0, 0};
    const std::string line = format.row(row, result);
    CHECK(line.ends_with("\n"));
    CHECK_EQ(std::count(line.begin(), line.end(), '\n'), 1);
    const auto json = nlohmann::json::parse(line);
    CHECK_EQ(json["record"].get<int>(), 8);
    CHECK_EQ(json["input"]["k"].get<std::string>(), std::string("五福"));
    CHECK_EQ(json["input"]["k_2"].get<std::string>(), std::string("dup"));
    CHECK_EQ(json["input"]["note"].get<std::string>(), row.cells[2]);
    CHECK_EQ(json["lower"].get<std::string>(), std::string("福满人间"));
    CHECK_EQ(json["status"].get<std::string>(), std::string("ok"));
    CHECK(ResultFormat::formatForPath("out.JSONL") == OutputFormat::JsonLines);
    CHECK(ResultFormat::formatForPath("out.csv") == OutputFormat::Csv);
}
