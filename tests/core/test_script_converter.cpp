// Output in Traditional characters (OpenCC): by phrase, so that a Simplified
// character with several Traditional ones (发 -> 發/髮, 干 -> 乾/幹/干, 后 ->
// 後/后, 面 -> 麪/麵/面, 里 -> 裏/裡/里) takes the one its word needs, and
// every line keeps its length.
#include "script_converter.h"
#include "utf8.h"

#include <check.h>

using namespace couplet;

namespace {

std::string in(OutputScript script, const char* text)
{
    return ScriptConverter::forScript(script).convert(text);
}

} // namespace

COUPLET_TEST(oneSimplifiedCharacterBecomesWhatItsWordNeeds)
{
    const auto t = OutputScript::Traditional;
    CHECK_EQ(in(t, "头发"), std::string("頭髮"));
    CHECK_EQ(in(t, "发展"), std::string("發展"));
    CHECK_EQ(in(t, "恭喜发财"), std::string("恭喜發財"));
    CHECK_EQ(in(t, "干净"), std::string("乾淨"));
    CHECK_EQ(in(t, "干部"), std::string("幹部"));
    CHECK_EQ(in(t, "以后"), std::string("以後"));
    CHECK_EQ(in(t, "皇后"), std::string("皇后"));
    CHECK_EQ(in(t, "面条"), std::string("麪條"));
    CHECK_EQ(in(t, "见面"), std::string("見面"));
    CHECK_EQ(in(t, "这里"), std::string("這裏"));
    CHECK_EQ(in(t, "万里"), std::string("萬里"));
}

// OpenCC alone reads 一生发财 as 一/生发/财 (生髮, growing hair): lines are
// converted foot by foot (2+2+3), as they are read.
COUPLET_TEST(linesAreReadInTheirFeet)
{
    const auto t = OutputScript::Traditional;
    CHECK_EQ(in(t, "一生发财家家乐"), std::string("一生發財家家樂"));
    CHECK_EQ(in(t, "头发乌黑添喜气"), std::string("頭髮烏黑添喜氣"));
    CHECK_EQ(in(t, "干净门庭发财福"), std::string("乾淨門庭發財福"));
    CHECK_EQ(in(t, "皇后发髻"), std::string("皇后髮髻"));
    CHECK_EQ(in(t, "家和万事兴，人寿百年长"), std::string("家和萬事興，人壽百年長"));
    CHECK_EQ(in(t, "以后面面俱到"), std::string("以後面面俱到"));
}

COUPLET_TEST(taiwanAndHongKongHaveTheirOwnForms)
{
    CHECK_EQ(in(OutputScript::Taiwan, "这里"), std::string("這裡"));
    CHECK_EQ(in(OutputScript::Taiwan, "面条"), std::string("麵條"));
    CHECK_EQ(in(OutputScript::Taiwan, "台湾"), std::string("臺灣"));
    // Taiwan's modern words only where asked for: they are not a couplet's.
    CHECK_EQ(in(OutputScript::Taiwan, "万象更新"), std::string("萬象更新"));
    CHECK_EQ(in(OutputScript::TaiwanPhrases, "鼠标"), std::string("滑鼠"));
    CHECK_EQ(in(OutputScript::HongKong, "这里"), std::string("這裏"));
    CHECK_EQ(in(OutputScript::Taiwan, "春回大地千山秀"), std::string("春回大地千山秀"));
    CHECK_EQ(in(OutputScript::Simplified, "头发"), std::string("头发"));
}

// s2twp writes 方便面 as Taiwan's 泡麵, one character shorter: the line then
// goes character by character, so that it still faces its partner.
COUPLET_TEST(aLineKeepsItsLength)
{
    CHECK_EQ(ScriptConverter::forScript(OutputScript::TaiwanPhrases).convert("方便面"), std::string("方便麵"));
    Couplet c;
    c.upper = "鼠标方便面条香";
    c.lower = "春风得意马蹄疾";
    c.hengpi = "万象更新";
    for (auto script : {OutputScript::Traditional, OutputScript::Taiwan, OutputScript::HongKong}) {
        const Couplet t = inScript(c, script);
        CHECK_EQ(utf8::length(t.upper), std::size_t(7));
        CHECK_EQ(utf8::length(t.lower), std::size_t(7));
        CHECK_EQ(t.hengpi, std::string("萬象更新"));
        CHECK_EQ(t.lower, std::string("春風得意馬蹄疾"));
    }
}

COUPLET_TEST(readsScriptNames)
{
    CHECK(parseOutputScript("traditional") == OutputScript::Traditional);
    CHECK(parseOutputScript("Taiwan") == OutputScript::Taiwan);
    CHECK(parseOutputScript("hk") == OutputScript::HongKong);
    CHECK(parseOutputScript("hong kong") == OutputScript::HongKong);
    CHECK(parseOutputScript("繁体") == OutputScript::Traditional);
    CHECK(parseOutputScript("s2twp") == OutputScript::TaiwanPhrases);
    CHECK(parseOutputScript("taiwan-phrases") == OutputScript::TaiwanPhrases);
    CHECK(parseOutputScript("简体") == OutputScript::Simplified);
    CHECK(!parseOutputScript("klingon").has_value());
    CHECK_EQ(outputScriptName(OutputScript::HongKong), std::string_view("hongkong"));
}
