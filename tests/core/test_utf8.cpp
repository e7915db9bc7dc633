#include "utf8.h"

#include <check.h>

using namespace couplet;

COUPLET_TEST(decodesAndEncodesMixedText)
{
    const std::string s = "春a福€😀";
    const auto cps = utf8::decode(s);
    CHECK_EQ(cps.size(), std::size_t(5));
    CHECK(cps[0] == U'春');
    CHECK_EQ(utf8::encode(cps), s);
    CHECK_EQ(utf8::characters("春回").size(), std::size_t(2));
}

COUPLET_TEST(reportsFirstInvalidByte)
{
    CHECK_EQ(utf8::firstInvalid("ab\xE6\x98"), std::size_t(2));
    CHECK_EQ(utf8::firstInvalid("\xC0\x80"), std::size_t(0)); // overlong NUL
    CHECK_EQ(utf8::firstInvalid("春"), std::string::npos);
    CHECK_THROWS(utf8::decode("ok\xFF"), "byte 2");
}

COUPLET_TEST(holdsBackIncompleteCharacter)
{
    const std::string chun = "春"; // 3 bytes
    CHECK_EQ(utf8::completePrefix(chun.substr(0, 1)), std::size_t(0));
    CHECK_EQ(utf8::completePrefix(chun.substr(0, 2)), std::size_t(0));
    CHECK_EQ(utf8::completePrefix(chun), std::size_t(3));
    CHECK_EQ(utf8::completePrefix("a" + chun.substr(0, 2)), std::size_t(1));
    CHECK_EQ(utf8::completePrefix(""), std::size_t(0));
}

COUPLET_TEST(describesCharactersVisiblyInMessages)
{
    CHECK_EQ(utf8::describe(U'a'), std::string("\"a\""));
    CHECK_EQ(utf8::describe(U'，'), std::string("\"，\""));
    CHECK_EQ(utf8::describe(U' '), std::string("U+0020 space"));
    CHECK_EQ(utf8::describe(U'\u3000'), std::string("U+3000 full-width space"));
    CHECK_EQ(utf8::describe(U'\u200b'), std::string("U+200B zero-width space"));
    CHECK_EQ(utf8::describe(U'\ufeff'), std::string("U+FEFF byte-order mark"));
    CHECK_EQ(utf8::describe(U'\x01'), std::string("U+0001"));
}

COUPLET_TEST(classifiesHan)
{
    CHECK(utf8::isHan(U'龍'));
    CHECK(!utf8::isHan(U'，'));
    CHECK(!utf8::isHan(U'a'));
}

COUPLET_TEST(classifiesSpacesAReaderCannotSee)
{
    for (char32_t c : {U' ', U'\t', U'\n', U'\r', U'\u00a0', U'\u2002', U'\u200b', U'\u2028', U'\u202f',
             U'\u3000', U'\ufeff'})
        CHECK(utf8::isSpace(c));
    for (char32_t c : {U'a', U'春', U'，', U'\u200d', U'\u00ad', U'\x01', U'_'})
        CHECK(!utf8::isSpace(c));
    // Every space is shown by code point in a message, never as a quoted blank.
    for (char32_t c = 0; c <= 0x10FFFF; ++c)
        if (utf8::isSpace(c)) CHECK_EQ(utf8::describe(c).rfind("U+", 0), std::size_t(0));
}
