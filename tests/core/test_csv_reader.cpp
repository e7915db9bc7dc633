#include "csv_reader.h"

#include "csv_test_util.h"

#include <check.h>

#include <sstream>

using namespace couplet;
using couplet::test::convertFromUtf8;

namespace {

CsvReader readerOf(const std::string& bytes, std::size_t chunk = 64 * 1024,
                   std::optional<TextEncoding> encoding = std::nullopt)
{
    CsvReaderOptions options;
    options.chunkBytes = chunk;
    options.encoding = encoding;
    return CsvReader(std::make_unique<std::istringstream>(bytes), options);
}

std::vector<std::vector<std::string>> allRecords(CsvReader& reader)
{
    std::vector<std::vector<std::string>> out;
    CsvRecord record;
    while (reader.next(record)) out.push_back(record.fields);
    return out;
}

using Rows = std::vector<std::vector<std::string>>;

// The error a whole parse ends in (header included).
CsvError errorOf(const std::string& bytes, std::size_t chunk = 64 * 1024)
{
    try {
        CsvReader reader = readerOf(bytes, chunk);
        allRecords(reader);
    } catch (const CsvError& e) {
        return e;
    }
    return CsvError(0, 0, "no error");
}

} // namespace

COUPLET_TEST(readsHeaderAndSimpleRecords)
{
    CsvReader reader = readerOf("a,b,c\n1,2,3\n4,5,6\n");
    CHECK_EQ(reader.header().size(), std::size_t(3));
    CHECK_EQ(reader.header()[2], std::string("c"));
    CHECK(allRecords(reader) == (Rows{{"1", "2", "3"}, {"4", "5", "6"}}));
}

COUPLET_TEST(quotedFieldsWithEscapesCommasAndNewlines)
{
    const std::string text = "k,u\r\n\"a,b\",\"say \"\"hi\"\"\"\r\n\"line1\nline2\",\"\"\r\n";
    for (std::size_t chunk : {1, 2, 3, 7, 65536}) {
        CsvReader reader = readerOf(text, chunk);
        CHECK(allRecords(reader) == (Rows{{"a,b", "say \"hi\""}, {"line1\nline2", ""}}));
    }
}

COUPLET_TEST(crlfLfAndMissingFinalNewline)
{
    CsvReader crlf = readerOf("h\r\nx\r\ny");
    CHECK(allRecords(crlf) == (Rows{{"x"}, {"y"}}));
    CsvReader lf = readerOf("h1,h2\nx,\n,y");
    CHECK(allRecords(lf) == (Rows{{"x", ""}, {"", "y"}}));
}

COUPLET_TEST(blankLinesAreSkippedButCountForLineNumbers)
{
    CsvReader reader = readerOf("h\n\n\r\nfirst\n\n\nsecond\n\n");
    CsvRecord r;
    CHECK(reader.next(r));
    CHECK_EQ(r.fields[0], std::string("first"));
    CHECK_EQ(r.number, std::uint64_t(1));
    CHECK_EQ(r.line, std::uint64_t(4));
    CHECK(reader.next(r));
    CHECK_EQ(r.number, std::uint64_t(2));
    CHECK_EQ(r.line, std::uint64_t(7));
    CHECK(!reader.next(r));
}

COUPLET_TEST(recordLineIsWhereItStartsAfterEmbeddedNewlines)
{
    CsvReader reader = readerOf("h,i\n\"a\nb\nc\",x\nnext,y\n");
    CsvRecord r;
    CHECK(reader.next(r));
    CHECK_EQ(r.line, std::uint64_t(2));
    CHECK(reader.next(r));
    CHECK_EQ(r.line, std::uint64_t(5));
}

COUPLET_TEST(quoteInsideAnUnquotedFieldIsText)
{
    CsvReader reader = readerOf("h\nab\"c\n");
    CHECK(allRecords(reader) == (Rows{{"ab\"c"}}));
}

COUPLET_TEST(unclosedQuoteReportsWhereItOpened)
{
    for (std::size_t chunk : {1, 4, 65536}) {
        const CsvError e = errorOf("k,u\nok,fine\nx,\"never\nclosed,at all\n", chunk);
        CHECK_EQ(e.line(), std::uint64_t(3));
        CHECK_EQ(e.column(), std::uint64_t(3));
        CHECK(e.reason().find("unclosed quote") != std::string::npos);
    }
}

COUPLET_TEST(characterAfterClosingQuoteIsAnError)
{
    const CsvError e = errorOf("k,u\n\"a\"b,c\n");
    CHECK_EQ(e.line(), std::uint64_t(2));
    CHECK_EQ(e.column(), std::uint64_t(4));
    CHECK(e.reason().find("\"b\"") != std::string::npos);
    // Columns count characters, not bytes.
    const CsvError han = errorOf("k,u\n春,\"联\"福\n");
    CHECK_EQ(han.line(), std::uint64_t(2));
    CHECK_EQ(han.column(), std::uint64_t(6));
    CHECK(std::string(han.what()).find("line 2, column 6") != std::string::npos);
}

COUPLET_TEST(errorRepeatsOnLaterCalls)
{
    CsvReader reader = readerOf("k\nok\n\"bad\"x\nlater\n");
    CsvRecord r;
    CHECK(reader.next(r));
    CHECK_THROWS(reader.next(r), "line 3, column 6");
    CHECK_THROWS(reader.next(r), "line 3, column 6");
}

COUPLET_TEST(raggedRecordsAreFlaggedNotThrown)
{
    CsvReader reader = readerOf("a,b,c\n1,2\n1,2,3\n1,2,3,4\n");
    CsvRecord r;
    CHECK(reader.next(r));
    CHECK(r.ragged);
    CHECK_EQ(r.fields.size(), std::size_t(2));
    CHECK(reader.next(r));
    CHECK(!r.ragged);
    CHECK(reader.next(r));
    CHECK(r.ragged);
    CHECK_EQ(r.fields.size(), std::size_t(4));
}

COUPLET_TEST(invalidBytesReportLineAndColumn)
{
    for (std::size_t chunk : {1, 3, 65536}) {
        // Valid UTF-8 in the detection window fixes the encoding as UTF-8.
        const CsvError e = errorOf("关键词,上联\n春,福\n春联,\xFF\n", chunk);
        CHECK_EQ(e.line(), std::uint64_t(3));
        CHECK_EQ(e.column(), std::uint64_t(4));
        CHECK(e.reason().find("byte offset 32") != std::string::npos);
    }
}

COUPLET_TEST(invalidBytesForADeclaredEncoding)
{
    const std::string bytes = convertFromUtf8("k\n五福\n", "GB18030") + "\x81\x20\n";
    try {
        CsvReader reader = readerOf(bytes, 65536, TextEncoding::Gb18030);
        allRecords(reader);
        CHECK(false);
    } catch (const CsvError& e) {
        CHECK_EQ(e.line(), std::uint64_t(3));
        CHECK_EQ(e.column(), std::uint64_t(1));
        CHECK(e.reason().find("GB18030") != std::string::npos);
    }
}

COUPLET_TEST(readsEveryEncodingFromFiles)
{
    couplet::test::TempDir dir;
    const std::string text = "关键词,上联\r\n五福临门,\"春回\r\n大地\"\r\n龙年,\r\n";
    const std::pair<const char*, std::string> files[] = {
        {"UTF-8", "\xEF\xBB\xBF" + text},
        {"UTF-8", text},
        {"UTF-16LE", "\xFF\xFE" + convertFromUtf8(text, "UTF-16LE")},
        {"UTF-16BE", "\xFE\xFF" + convertFromUtf8(text, "UTF-16BE")},
        {"GB18030", convertFromUtf8(text, "GB18030")},
    };
    for (const auto& [name, bytes] : files) {
        couplet::test::writeFile(dir / "in.csv", bytes);
        CsvReaderOptions options;
        options.chunkBytes = 5;
        CsvReader reader(dir / "in.csv", options);
        CHECK_EQ(std::string(encodingName(reader.encoding())), std::string(name));
        CHECK_EQ(reader.header()[0], std::string("关键词"));   // no BOM left in it
        CHECK(allRecords(reader) == (Rows{{"五福临门", "春回\r\n大地"}, {"龙年", ""}}));
        CHECK_EQ(reader.bytesRead(), std::uint64_t(bytes.size()));
    }
}

COUPLET_TEST(gbkFixtureFromExcel)
{
    CsvReader reader(couplet::test::testDataDir() / "csv" / "excel_gbk.csv");
    CHECK(reader.encoding() == TextEncoding::Gb18030);
    CHECK_EQ(reader.header()[1], std::string("关键词"));
    CsvRecord r;
    CHECK(reader.next(r));
    CHECK_EQ(r.fields[1], std::string("五福 临门"));
}

COUPLET_TEST(skipToResumesAtARecord)
{
    std::string text = "id,k\n";
    for (int i = 1; i <= 1000; ++i) text += std::to_string(i) + ",\"v\n" + std::to_string(i) + "\"\n";
    CsvReader reader = readerOf(text, 100);
    reader.skipTo(700);
    CsvRecord r;
    CHECK(reader.next(r));
    CHECK_EQ(r.number, std::uint64_t(700));
    CHECK_EQ(r.fields[0], std::string("700"));
    CHECK_EQ(r.line, std::uint64_t(2 + 699 * 2));
}

COUPLET_TEST(streamsALargeFile)
{
    couplet::test::TempDir dir;
    {
        std::ofstream out(dir / "big.csv", std::ios::binary);
        out << "id,关键词\r\n";
        for (int i = 1; i <= 200000; ++i) out << i << ",五福临门" << i % 7 << "\r\n";
    }
    CsvReader reader(dir / "big.csv");
    CsvRecord r;
    std::uint64_t n = 0, sum = 0;
    while (reader.next(r)) {
        ++n;
        sum += std::stoull(r.fields[0]);
    }
    CHECK_EQ(n, std::uint64_t(200000));
    CHECK_EQ(sum, std::uint64_t(200000) * 200001 / 2);
    CHECK_EQ(r.number, std::uint64_t(200000));
}

COUPLET_TEST(emptyInputHasNoHeader)
{
    CsvReader reader = readerOf("");
    CHECK(reader.header().empty());
    CsvRecord r;
    CHECK(!reader.next(r));
}
