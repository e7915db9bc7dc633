// CSV files as other software writes them (tests/data/csv/README.md says how
// each was made): none was encoded by the iconv that the reader decodes with.

#include "csv_reader.h"

#include "csv_test_util.h"

#include <check.h>

using namespace couplet;

namespace {

using Rows = std::vector<std::vector<std::string>>;

// The header and records, read in chunks of `chunk` bytes (a chunk of 3
// cuts characters and BOMs); checks the detected encoding and BOM.
Rows readAll(const std::string& file, CsvReaderOptions options, std::size_t chunk, TextEncoding expected, bool bom)
{
    options.chunkBytes = chunk;
    CsvReader reader(couplet::test::testDataDir() / "csv" / file, options);
    CHECK(reader.encoding() == expected);
    CHECK_EQ(reader.hadBom(), bom);
    Rows rows{reader.header()};
    CsvRecord record;
    while (reader.next(record)) rows.push_back(record.fields);
    return rows;
}

constexpr std::size_t kChunks[] = {64 * 1024, 3};

} // namespace

COUPLET_TEST(wpsGb18030CsvWithFourByteCharacters)
{
    const Rows expected{
        {"编号", "关键词", "上联", "备注"},
        {"1", "五福", "", ""},
        {"2", "龙年 吉祥", "", "客户\"刘备\"的订单, 加急"},
        {"3", "", "春回大地千山秀", "含扩展B区字\U00020000与\u3400\r\n第二行"},
        {"4", "家和", "", "价格 €88"},
    };
    for (std::size_t chunk : kChunks)
        CHECK(readAll("wps_gb18030.csv", {}, chunk, TextEncoding::Gb18030, false) == expected);
}

COUPLET_TEST(excelUnicodeTextIsUtf16LeWithTabs)
{
    CsvReaderOptions options;
    options.delimiter = '\t';
    const Rows expected{
        {"id", "关键词", "字数", "note"},
        {"1", "五福", "7", ""},
        {"2", "龙年\t生意", "5", "tab inside"},
        {"3", "春", "7", "两行\r\n\"引号\""},
        {"4", "\U00020000", "7", "supplementary"},
    };
    for (std::size_t chunk : kChunks)
        CHECK(readAll("excel_unicode_text_utf16le.txt", options, chunk, TextEncoding::Utf16Le, true) == expected);
}
