#include "check.h"

#include "embed_position.h"
#include "prompt_parser.h"

#include <string>
#include <vector>

using namespace couplet;

namespace {

std::vector<std::string> keywordsOf(const char* prompt) { return PromptParser::parse(prompt).keywords; }
using Words = std::vector<std::string>;

} // namespace

COUPLET_TEST(readsTheIssueExample)
{
    const auto p = PromptParser::parse("生成一副关于家庭和睦、喜迎新春的七言春联，横批阖家欢乐");
    CHECK(p.spec.mode == PromptMode::Keywords);
    CHECK(p.keywords == (Words{"家庭和睦", "喜迎新春"}));
    CHECK_EQ(p.spec.keywords, std::string("家庭和睦 喜迎新春"));
    CHECK_EQ(p.spec.length, 7);
    CHECK_EQ(p.spec.hengpi, std::string("阖家欢乐"));
    CHECK(p.spec.upper.empty() && p.spec.acrostic.empty());
}

COUPLET_TEST(readsLengths)
{
    CHECK_EQ(PromptParser::parse("写一副五言对联，关于春天").spec.length, 5);
    CHECK_EQ(PromptParser::parse("九言春联 龙年").spec.length, 9);
    CHECK_EQ(PromptParser::parse("9字春联，主题是生意兴隆").spec.length, 9);
    CHECK_EQ(PromptParser::parse("七个字的春联，关键词：平安").spec.length, 7);
    CHECK_EQ(PromptParser::parse("给我来一副十一字的对联，主题为春节").spec.length, 11);
    CHECK_EQ(PromptParser::parse("每联5字，关于团圆").spec.length, 5);
    CHECK_EQ(PromptParser::parse("关于团圆的春联").spec.length, 7); // the default when none is said
    // 四字横批 is the 横批, not the lines.
    const auto p = PromptParser::parse("五言春联，带四字横批，关于春天");
    CHECK_EQ(p.spec.length, 5);
    CHECK(p.keywords == (Words{"春天"}));
}

COUPLET_TEST(readsThemesAndSplitsKeywords)
{
    CHECK(keywordsOf("写一副五言对联，以龙年大吉为主题") == (Words{"龙年大吉"}));
    CHECK(keywordsOf("9字春联，主题是生意兴隆和财源广进") == (Words{"生意兴隆", "财源广进"}));
    CHECK(keywordsOf("春节和团圆的对联") == (Words{"春节", "团圆"}));
    CHECK(keywordsOf("关于：龙年、春节与家和万事兴") == (Words{"龙年", "春节", "家和万事兴"}));
    CHECK(keywordsOf("七言春联，关键词：平安，健康") == (Words{"平安", "健康"}));
    CHECK(keywordsOf("有关五谷丰登的对联") == (Words{"五谷丰登"}));
    CHECK(keywordsOf("用国泰民安为题写副对联") == (Words{"国泰民安"}));
    CHECK(keywordsOf("主题为和谐社会和美好生活") == (Words{"和谐社会", "美好生活"}));
}

COUPLET_TEST(keepsHeInsideWords)
{
    // 和 inside 和睦, 祥和, 和平 is part of the word, not a separator.
    CHECK(keywordsOf("关于家庭和睦的春联") == (Words{"家庭和睦"}));
    CHECK(keywordsOf("关于吉祥和顺的春联") == (Words{"吉祥和顺"}));
    CHECK(keywordsOf("关于世界和平的对联") == (Words{"世界和平"}));
    CHECK(keywordsOf("关于祥和的春联") == (Words{"祥和"}));
}

COUPLET_TEST(takesLeftoverHanAsTheTheme)
{
    CHECK(keywordsOf("龙年大吉") == (Words{"龙年大吉"}));
    CHECK(keywordsOf("写副对联 出入平安") == (Words{"出入平安"}));
    CHECK(keywordsOf("新年春联") == (Words{"新年"}));
    CHECK(keywordsOf("Please write a 春节 couplet") == (Words{"春节"}));
    CHECK(keywordsOf("请帮我写一副春联：五福临门") == (Words{"五福临门"}));
    const auto p = PromptParser::parse("帮我写一副适合贴在店铺门口的春联，关于生意兴隆");
    CHECK(p.keywords == (Words{"生意兴隆"}));
    CHECK(!p.ignored.empty());
    CHECK_EQ(p.ignored.front(), std::string("适合贴在店铺门口的"));
}

COUPLET_TEST(readsAGivenUpperLine)
{
    auto p = PromptParser::parse("上联：春回大地千山秀，请对下联");
    CHECK(p.spec.mode == PromptMode::Upper);
    CHECK_EQ(p.spec.upper, std::string("春回大地千山秀"));
    CHECK(p.keywords.empty());
    p = PromptParser::parse("上联是一帆风顺年年好");
    CHECK_EQ(p.spec.upper, std::string("一帆风顺年年好"));
    p = PromptParser::parse("上联:春回大地千山秀,福满人间万户欢,请写下联");
    CHECK_EQ(p.spec.upper, std::string("春回大地千山秀，福满人间万户欢"));
    p = PromptParser::parse("上联：“天增岁月人增寿” 求下联，横批春满人间");
    CHECK_EQ(p.spec.upper, std::string("天增岁月人增寿"));
    CHECK_EQ(p.spec.hengpi, std::string("春满人间"));
}

COUPLET_TEST(readsAcrostics)
{
    auto p = PromptParser::parse("藏头春福的七言春联");
    CHECK(p.spec.mode == PromptMode::Acrostic);
    CHECK_EQ(p.spec.acrostic, std::string("春福"));
    CHECK_EQ(p.spec.length, 7);
    CHECK_EQ(PromptParser::parse("以春福二字藏头写一副对联").spec.acrostic, std::string("春福"));
    CHECK_EQ(PromptParser::parse("用“龙”“兴”藏头，七言").spec.acrostic, std::string("龙兴"));
    CHECK_EQ(PromptParser::parse("写一副藏头春联，藏头字为吉祥").spec.acrostic, std::string("吉祥"));
    CHECK_EQ(PromptParser::parse("写一副福藏头的对联").spec.acrostic, std::string("福"));
    p = PromptParser::parse("嵌字：福寿，五言");
    CHECK_EQ(p.spec.acrostic, std::string("福寿"));
    CHECK_EQ(p.spec.length, 5);
    CHECK_EQ(p.notes.size(), std::size_t{1});
    // 藏头 with a theme: keywords and the acrostic together.
    p = PromptParser::parse("关于新春的对联，藏头：吉祥");
    CHECK(p.spec.mode == PromptMode::Keywords);
    CHECK_EQ(p.spec.acrostic, std::string("吉祥"));
    CHECK(p.keywords == (Words{"新春"}));
}

// 嵌名 at a position: the classical names (燕颔格 ...), 第N字 and 末字, before
// or after the name, with or without 嵌名.
COUPLET_TEST(readsEmbeddedNamesAndTheirPositions)
{
    auto p = PromptParser::parse("嵌名德顺，燕颔格，七言");
    CHECK(p.spec.mode == PromptMode::Acrostic);
    CHECK_EQ(p.spec.acrostic, std::string("德顺"));
    CHECK_EQ(p.spec.embedAt, 2);
    CHECK_EQ(p.spec.length, 7);
    CHECK(p.notes.size() == 1 && p.notes[0].find("燕颔格 (2nd character)") != std::string::npos);
    CHECK_EQ(PromptParser::parse("德顺蜂腰格").spec.acrostic, std::string("德顺"));
    CHECK_EQ(PromptParser::parse("德顺蜂腰格").spec.embedAt, 4);
    p = PromptParser::parse("写一副雁足格对联，嵌“德”“顺”二字，五言");
    CHECK_EQ(p.spec.acrostic, std::string("德顺"));
    CHECK_EQ(p.spec.embedAt, kEmbedLast);
    CHECK_EQ(p.spec.length, 5);
    p = PromptParser::parse("把德顺二字嵌在第三字，九言");
    CHECK_EQ(p.spec.acrostic, std::string("德顺"));
    CHECK_EQ(p.spec.embedAt, 3);
    CHECK_EQ(p.spec.length, 9);
    p = PromptParser::parse("关于开业的对联，鹤膝格嵌名：兴隆");
    CHECK(p.keywords == (Words{"开业"}));
    CHECK_EQ(p.spec.acrostic, std::string("兴隆"));
    CHECK_EQ(p.spec.embedAt, 5);
    // 鹤顶格 is 藏头.
    p = PromptParser::parse("鹤顶格春福");
    CHECK_EQ(p.spec.acrostic, std::string("春福"));
    CHECK_EQ(p.spec.embedAt, 1);
    CHECK_EQ(PromptParser::parse("藏头春福的七言春联").spec.embedAt, 1);
    // Without 嵌 or 藏, 第二字 is no position and 五字 stays a length.
    CHECK_EQ(PromptParser::parse("关于春节的五字对联").spec.length, 5);
}

COUPLET_TEST(readsHengpiPhrasings)
{
    CHECK_EQ(PromptParser::parse("春节和团圆的对联，横批：万象更新").spec.hengpi, std::string("万象更新"));
    CHECK_EQ(PromptParser::parse("以阖家欢乐为横批，写一副关于春节的对联").spec.hengpi, std::string("阖家欢乐"));
    CHECK_EQ(PromptParser::parse("春联 龙腾虎跃 七言 横批 万事如意").spec.hengpi, std::string("万事如意"));
    CHECK(PromptParser::parse("关于春天的对联，要有横批").spec.hengpi.empty());
}

COUPLET_TEST(refusesPromptsWithNothingToWrite)
{
    CHECK_THROWS(PromptParser::parse("hello world"), "no Han characters");
    CHECK_THROWS(PromptParser::parse(""), "no Han characters");
    CHECK_THROWS(PromptParser::parse("写一副春联"), "names no theme");
    CHECK_THROWS(PromptParser::parse("生成一副七言对联"), "names no theme");
    CHECK_THROWS(PromptParser::parse("写一副藏头联"), "names no theme");
    CHECK_THROWS(PromptParser::parse(std::string("\xE6\x98", 2)), "not valid UTF-8");
}

// A given 上联 in other letters is refused by name: it was read as a theme of 上
// (上联：hello), or cut short where the letters began (上联：春风hello).
COUPLET_TEST(refusesAGivenUpperLineInOtherLetters)
{
    CHECK_THROWS(PromptParser::parse("上联：hello"), "\"hello\" is not (after 上联:)");
    CHECK_THROWS(PromptParser::parse("上联：春风hello2027，请对下联"), "\"hello2027\" is not (after 上联:春风)");
    // Letters after the request clause are not part of the 上联.
    CHECK_EQ(PromptParser::parse("上联：春回大地，请对下联 thanks").spec.upper, std::string("春回大地"));
}
