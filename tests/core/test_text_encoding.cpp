#include "text_decoder.h"
#include "text_encoding.h"

#include "csv_test_util.h"

#include <check.h>

using namespace couplet;
using couplet::test::convertFromUtf8;

namespace {

const std::string kSample = "关键词,上联\r\n五福临门,春回大地\r\n龙年 生意,\"a,b\"\r\n𠀀😀€\r\n";

// Decodes `bytes` fed in pieces of `piece` bytes.
std::string decodeInPieces(TextEncoding encoding, const std::string& bytes, std::size_t piece)
{
    TextDecoder decoder(encoding);
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += piece)
        decoder.feed(std::string_view(bytes).substr(i, piece), out);
    decoder.finish();
    return out;
}

} // namespace

COUPLET_TEST(detectsBomsFirst)
{
    CHECK(detectEncoding("\xEF\xBB\xBF" "abc", true).encoding == TextEncoding::Utf8);
    CHECK_EQ(detectEncoding("\xEF\xBB\xBF" "abc", true).bomLength, std::size_t(3));
    CHECK(detectEncoding("\xFF\xFE" "a\0", true).encoding == TextEncoding::Utf16Le);
    CHECK_EQ(detectEncoding("\xFF\xFE" "a\0", true).bomLength, std::size_t(2));
    CHECK(detectEncoding("\xFE\xFF\0a", true).encoding == TextEncoding::Utf16Be);
}

COUPLET_TEST(detectsUtf8WithoutBomAndFallsBackToGb18030)
{
    CHECK(detectEncoding("keywords,upper\n", true).encoding == TextEncoding::Utf8);
    CHECK(detectEncoding(kSample, true).encoding == TextEncoding::Utf8);
    CHECK_EQ(detectEncoding(kSample, true).bomLength, std::size_t(0));
    const std::string gbk = convertFromUtf8("关键词,上联\r\n五福临门,春回大地\r\n", "GB18030");
    CHECK(detectEncoding(gbk, true).encoding == TextEncoding::Gb18030);
}

COUPLET_TEST(detectionWindowMayCutACharacter)
{
    const std::string chun = "春";
    const std::string head = std::string(10, 'a') + chun.substr(0, 2);
    CHECK(detectEncoding(head, false).encoding == TextEncoding::Utf8);
    // At the end of the file the same bytes are not UTF-8.
    CHECK(detectEncoding(head, true).encoding == TextEncoding::Gb18030);
}

COUPLET_TEST(parsesEncodingNames)
{
    CHECK(parseEncodingName("gbk") == TextEncoding::Gb18030);
    CHECK(parseEncodingName("GB2312") == TextEncoding::Gb18030);
    CHECK(parseEncodingName("utf-8") == TextEncoding::Utf8);
    CHECK(parseEncodingName("UTF-16LE") == TextEncoding::Utf16Le);
    CHECK(parseEncodingName("utf_16_be") == TextEncoding::Utf16Be);
    CHECK(!parseEncodingName("latin1").has_value());
    for (auto e : {TextEncoding::Utf8, TextEncoding::Utf16Le, TextEncoding::Utf16Be, TextEncoding::Gb18030})
        CHECK(parseEncodingName(encodingName(e)) == e);
}

COUPLET_TEST(roundTripsEveryEncodingInAnyChunking)
{
    for (auto e : {TextEncoding::Utf8, TextEncoding::Utf16Le, TextEncoding::Utf16Be, TextEncoding::Gb18030}) {
        const std::string bytes = convertFromUtf8(kSample, encodingName(e));
        for (std::size_t piece : {1, 2, 3, 5, 7, 64, 4096})
            CHECK_EQ(decodeInPieces(e, bytes, piece), kSample);
    }
}

COUPLET_TEST(invalidUtf8NamesTheByteOffset)
{
    TextDecoder decoder(TextEncoding::Utf8, 3);   // as if after a BOM
    std::string out;
    decoder.feed("ab", out);
    try {
        decoder.feed("c\xFF" "d", out);
        CHECK(false);
    } catch (const EncodingError& e) {
        CHECK_EQ(e.byteOffset(), std::uint64_t(6));
        CHECK(std::string(e.what()).find("0xFF") != std::string::npos);
    }
    CHECK_EQ(out, std::string("abc"));
}

COUPLET_TEST(invalidGb18030NamesTheByteOffset)
{
    const std::string good = convertFromUtf8("春联", "GB18030");
    TextDecoder decoder(TextEncoding::Gb18030);
    std::string out;
    CHECK_THROWS(decoder.feed(good + "\xFF" "a", out), "byte offset 4");
    CHECK_EQ(out, std::string("春联"));
}

COUPLET_TEST(unfinishedCharacterAtTheEndIsAnError)
{
    for (auto e : {TextEncoding::Utf8, TextEncoding::Utf16Le, TextEncoding::Gb18030}) {
        const std::string bytes = convertFromUtf8("ab春", encodingName(e));
        TextDecoder decoder(e);
        std::string out;
        decoder.feed(bytes.substr(0, bytes.size() - 1), out);
        CHECK_THROWS(decoder.finish(), "ends inside a character");
    }
}

COUPLET_TEST(oddUtf16LengthIsAnError)
{
    TextDecoder decoder(TextEncoding::Utf16Le);
    std::string out;
    decoder.feed(std::string("a\0b", 3), out);
    CHECK_EQ(out, std::string("a"));
    CHECK_THROWS(decoder.finish(), "byte offset 2");
}

COUPLET_TEST(loneSurrogateInUtf16IsInvalid)
{
    TextDecoder decoder(TextEncoding::Utf16Le);
    std::string out;
    // U+DC00 alone: a low surrogate without its high half.
    CHECK_THROWS(decoder.feed(std::string("a\0\x00\xDC" "b\0", 6), out), "UTF-16LE");
}

COUPLET_TEST(damagedUtf8StaysUtf8)
{
    CHECK(detectEncoding("关键词,上联\n春,福\n春联,\xFF\n", true).encoding == TextEncoding::Utf8);
    CHECK(detectEncoding("春\xFF", true).encoding == TextEncoding::Gb18030);
}
