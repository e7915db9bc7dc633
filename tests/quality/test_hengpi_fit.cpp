// 横批 that fit: an occasion's own phrases only over its couplets (no 金玉良缘
// over a household's spring couplet), its own first; none that repeats a word
// of the couplet; the year's animal only, whatever the lines name.
#include "couplet_constraints.h"
#include "couplet_model.h"
#include "generate.h"
#include "hengpi_list.h"
#include "occasion.h"
#include "prompt_case.h"
#include "spring_festival.h"
#include "tone_table.h"
#include "utf8.h"
#include "vocab.h"
#include "zodiac.h"

#include <check.h>

#include <algorithm>
#include <set>

using namespace couplet;

namespace {

std::vector<char32_t> characters(std::u32string_view text)
{
    return {text.begin(), text.end()};
}

struct Rig {
    Vocab vocab{characters(U"金玉良缘开业大吉五福临门春回地马年羊祥送旧迎新岁生意兴隆满堂阖家团圆第星照珠润")};
    ToneTable tones;
    TokenClasses classes{vocab, tones};
    PhraseTrie trie;
    Rig()
    {
        add(U"金玉良缘", kOccasionWedding);
        add(U"开业大吉", kOccasionBusiness);
        add(U"生意兴隆", kOccasionBusiness | kOccasionShared);
        add(U"五福临门", 0);
        add(U"春回大地", 0);
        add(U"马年大吉", 0);
        add(U"羊年吉祥", 0);
        add(U"阖家团圆", 0);
        add(U"金玉满堂", 0);
        add(U"福临门第", 0);
        add(U"珠圆玉润", 0);
    }
    void add(std::u32string_view p, unsigned occasions)
    {
        trie.insert(vocab.encode(utf8::encode(std::u32string(p))), zodiacOf(p), occasions);
    }
    // The 横批 a couplet of `upper` / `lower` may take, as the sorted set of
    // the phrases still reachable after each first character.
    std::set<std::u32string> hengpiFor(ConstraintSpec spec, std::u32string_view upper, std::u32string_view lower) const
    {
        spec.length = static_cast<int>(upper.size());
        std::set<std::u32string> out;
        for (const auto& e : trie.phrases()) {
            CoupletConstraints c(classes, trie, spec);
            for (char32_t ch : upper) c.advance(vocab.id(ch));
            c.advance(tok::kLower);
            for (char32_t ch : lower) c.advance(vocab.id(ch));
            c.advance(tok::kHengpi);
            bool fits = true;
            for (int t : e.tokens) {
                const auto& allowed = c.allowed();
                if (std::find(allowed.begin(), allowed.end(), t) == allowed.end()) {
                    fits = false;
                    break;
                }
                c.advance(t);
            }
            if (fits) out.insert(utf8::decode(vocab.decode(e.tokens)));
        }
        return out;
    }
};

} // namespace

COUPLET_TEST(promptsNameTheirOccasions)
{
    CHECK_EQ(occasionsOf(U"新婚 喜庆"), unsigned(kOccasionWedding));
    CHECK_EQ(occasionsOf(U"开业 大吉"), unsigned(kOccasionBusiness));
    CHECK_EQ(occasionsOf(U"乔迁"), unsigned(kOccasionMoving));
    CHECK_EQ(occasionsOf(U"医院 健康"), unsigned(kOccasionHealth));
    CHECK_EQ(occasionsOf(U"健康 长寿"), 0u); // a wish, not a clinic
    CHECK_EQ(occasionsOf(U"永结同心"), unsigned(kOccasionWedding));
    CHECK_EQ(occasionsOf(U"五谷 丰登"), unsigned(kOccasionFarming));
    CHECK_EQ(occasionsOf(U"教师"), unsigned(kOccasionSchool));
    CHECK_EQ(occasionsOf(U"农家 丰收"), unsigned(kOccasionFarming));
    CHECK_EQ(occasionsOf(U"科技"), unsigned(kOccasionTechnology));
    CHECK_EQ(occasionsOf(U"五福 平安 团圆"), 0u);
    CHECK(occasionNamed("wedding") == unsigned(kOccasionWedding));
    CHECK(occasionNamed("any") == kOccasionShared);
    CHECK(!occasionNamed("funeral").has_value());
}

COUPLET_TEST(anOccasionsHengpiOnlyOverItsCouplets)
{
    const Rig r;
    ConstraintSpec plain;
    const auto home = r.hengpiFor(plain, U"五福迎新岁", U"春回满玉堂");
    CHECK(home.count(U"金玉良缘") == 0); // shares 玉 with the couplet, but it is no wedding
    CHECK(home.count(U"开业大吉") == 0);
    CHECK(home.count(U"生意兴隆") == 1); // a shop's phrase every household hangs too
    ConstraintSpec shop;
    shop.occasions = kOccasionBusiness;
    // A shop's couplet takes its own: 开业大吉 and 生意兴隆 only.
    CHECK(r.hengpiFor(shop, U"五福迎新岁", U"春回满玉堂") == (std::set<std::u32string>{U"开业大吉", U"生意兴隆"}));
    ConstraintSpec wedding;
    wedding.occasions = kOccasionWedding;
    CHECK(r.hengpiFor(wedding, U"五福迎新岁", U"春回满玉堂") == std::set<std::u32string>{U"金玉良缘"});
}

COUPLET_TEST(noHengpiRepeatsAWordOfTheCouplet)
{
    const Rig r;
    ConstraintSpec plain;
    const auto fit = r.hengpiFor(plain, U"春回迎新岁", U"五福满玉堂");
    CHECK(fit.count(U"春回大地") == 0); // 春回 is the 上联's
    CHECK(fit.count(U"五福临门") == 0); // 五福 is the 下联's
    CHECK(fit.count(U"生意兴隆") == 1);
    // When every phrase repeats one, the rule gives way rather than leave none.
    ConstraintSpec wedding;
    wedding.occasions = kOccasionWedding;
    CHECK(r.hengpiFor(wedding, U"金玉迎新岁", U"良缘满春堂") == std::set<std::u32string>{U"金玉良缘"});
}

COUPLET_TEST(aHengpiThatHoldsThePromptsThemeComesFirst)
{
    const Rig r;
    const auto run = [&](std::u32string_view text) { return r.vocab.encode(utf8::encode(std::u32string(text))); };
    ConstraintSpec plain;
    // 阖家团圆 repeats the 上联's 团圆: not offered for a couplet about nothing in particular ...
    const auto home = r.hengpiFor(plain, U"团圆迎新岁", U"五福满春堂");
    CHECK(home.count(U"阖家团圆") == 0);
    CHECK(home.size() > 1);
    // ... but it is the 横批 of a prompt for 团圆, whose own word it may repeat.
    ConstraintSpec reunion;
    reunion.themes = {run(U"团圆")};
    CHECK(r.hengpiFor(reunion, U"团圆迎新岁", U"五福满春堂") == std::set<std::u32string>{U"阖家团圆"});
    // A 藏头 name of two characters: 金玉 -> 金玉满堂, not the wedding's 金玉良缘.
    ConstraintSpec name;
    name.themes = {run(U"金玉")};
    CHECK(r.hengpiFor(name, U"金福迎新岁", U"玉春送旧年") == std::set<std::u32string>{U"金玉满堂"});
    // With its characters as themes too (as a 藏头 prompt has them), a phrase that holds one of them
    // will do (珠圆玉润), and it is all that is left where the name's phrase would retell a line (满堂).
    name.themes = {run(U"金玉"), run(U"金"), run(U"玉")};
    CHECK(r.hengpiFor(name, U"金福迎新岁", U"玉春送旧年") == (std::set<std::u32string>{U"金玉满堂", U"珠圆玉润"}));
    CHECK(r.hengpiFor(name, U"金福满堂岁", U"玉春送旧年") == std::set<std::u32string>{U"珠圆玉润"});
    // Two keywords the 上联 holds both of: the phrase made of them retells the line.
    ConstraintSpec shop;
    shop.themes = {run(U"生意"), run(U"兴隆")};
    const auto both = r.hengpiFor(shop, U"兴隆生意迎新春", U"五福满玉堂大地");
    CHECK(both.count(U"生意兴隆") == 0);
    CHECK(both.count(U"阖家团圆") == 1);
    // A theme no phrase holds changes nothing.
    ConstraintSpec none;
    none.themes = {run(U"星照")};
    CHECK(r.hengpiFor(none, U"团圆迎新岁", U"五福满春堂") == home);
}

COUPLET_TEST(aHengpiThatRetellsALineIsHeldBack)
{
    const Rig r;
    ConstraintSpec plain;
    // 福临门第 shares no word with 门迎五福福星照, but two of its characters (门, 福).
    const auto fit = r.hengpiFor(plain, U"门迎五福福星照", U"春回大地兴隆祥");
    CHECK(fit.count(U"福临门第") == 0);
    CHECK(fit.count(U"生意兴隆") == 0); // 兴隆 is the 下联's
    CHECK(fit.count(U"开业大吉") == 0); // a shop's own
    CHECK(fit.count(U"阖家团圆") == 1);
    // When nothing else is left, the strict rule gives way before the word rule.
    ConstraintSpec shop;
    shop.occasions = kOccasionBusiness;
    // 生意兴隆 shares 生 and 隆 with the 上联, 开业大吉 a word (开业) with the 下联: the shop keeps 生意兴隆.
    CHECK(r.hengpiFor(shop, U"生福迎隆新星照", U"开业送旧大吉祥") == std::set<std::u32string>{U"生意兴隆"});
}

COUPLET_TEST(theHengpiNamesTheYearsAnimalWhateverTheLinesName)
{
    const Rig r;
    ConstraintSpec spec;
    spec.mixedZodiac = true;  // 金马送旧岁 sees the horse off
    spec.hengpiAnimal = zodiacOfYear(2027); // 羊
    const auto fit = r.hengpiFor(spec, U"金马送旧岁", U"玉羊迎新春");
    CHECK(fit.count(U"马年大吉") == 0);
    CHECK(fit.count(U"羊年吉祥") == 1);
    spec.hengpiAnimal = -1; // no year: the lines' animals rule, all of them when mixed
    CHECK(r.hengpiFor(spec, U"金马送旧岁", U"玉羊迎新春").count(U"马年大吉") == 1);
    ConstraintSpec one;
    one.hengpiAnimal = zodiacOfYear(2027);
    CHECK(r.hengpiFor(one, U"金马送旧岁", U"玉兴迎新春").count(U"马年大吉") == 0); // the 上联's horse is no year
}

COUPLET_TEST(theShippedListTagsItsOccasions)
{
    const auto list = HengpiList::load(CoupletModel::defaultModelDir() / "hengpi.txt");
    const auto occasionsOfPhrase = [&](std::u32string_view text) -> long {
        for (const auto& p : list.phrases())
            if (p.text == text) return p.occasions;
        return -1; // not in the list
    };
    CHECK_EQ(occasionsOfPhrase(U"金玉良缘"), long(kOccasionWedding));
    CHECK_EQ(occasionsOfPhrase(U"美满姻缘"), long(kOccasionWedding));
    CHECK_EQ(occasionsOfPhrase(U"开业大吉"), long(kOccasionBusiness));
    CHECK_EQ(occasionsOfPhrase(U"妙手回春"), long(kOccasionHealth));
    CHECK_EQ(occasionsOfPhrase(U"乔迁之喜"), long(kOccasionMoving));
    CHECK_EQ(occasionsOfPhrase(U"桃李芬芳"), long(kOccasionSchool));
    CHECK_EQ(occasionsOfPhrase(U"五谷丰登"), long(kOccasionFarming | kOccasionShared));
    CHECK_EQ(occasionsOfPhrase(U"五福临门"), 0L);
    CHECK_EQ(occasionsOfPhrase(U"香消玉殒"), -1L); // a beauty's death is no blessing
    CHECK_EQ(occasionsOfPhrase(U"卖国求荣"), -1L);
    // Advice, a farewell, a slogan, a plain description: no blessing over a door.
    for (const auto* no : {U"金玉良言", U"克勤克俭", U"一路平安", U"发家致富", U"家家户户", U"春花秋月", U"医德高尚"})
        CHECK_EQ(occasionsOfPhrase(no), -1L);
    CHECK_EQ(occasionsOfPhrase(U"阖家团圆"), 0L);
    CHECK_EQ(occasionsOfPhrase(U"福寿安康"), 0L); // a household's wish, not a hospital's 横批
    CHECK_EQ(occasionsOfPhrase(U"财源茂盛"), long(kOccasionBusiness | kOccasionShared));
}

COUPLET_TEST(shippedModelHangsTheOccasionsHengpi)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    const auto list = HengpiList::load(CoupletModel::defaultModelDir() / "hengpi.txt");
    auto decoder = model->makeDecoder();
    const auto tagged = [&](const std::string& hengpi) -> unsigned {
        for (const auto& p : list.phrases())
            if (utf8::encode(p.text) == hengpi) return p.occasions;
        return 0;
    };
    struct Case {
        const char* keywords;
        unsigned occasion;
    };
    for (const Case& k : {Case{"开业", kOccasionBusiness}, Case{"新婚", kOccasionWedding}, Case{"医院", kOccasionHealth},
                          Case{"乔迁", kOccasionMoving}, Case{"平安 团圆", 0u}}) {
        GenerationSpec spec = testing::PromptCase{PromptMode::Keywords, k.keywords, 7}.unrankedSpec(6);
        spec.sampling.seed = 21;
        spec.year = 2027;
        for (const auto& c : generateCouplets(*model, *decoder, spec)) {
            const unsigned occasions = tagged(c.hengpi);
            if (k.occasion != 0) CHECK((occasions & k.occasion) != 0);
            else CHECK(occasions == 0 || (occasions & kOccasionShared) != 0);
            CHECK(c.hengpi.find("马") == std::string::npos && c.hengpi.find("龙") == std::string::npos);
        }
    }
}

COUPLET_TEST(shippedModelHangsAHengpiThatHoldsTheTheme)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    auto decoder = model->makeDecoder();
    struct Case {
        PromptMode mode;
        const char* text;
        const char* theme;
    };
    // 金玉's name whole (金玉满堂), or one of its characters where that phrase would retell a line
    // (珠圆玉润 under 金碧满堂歌盛世, the weights trained on judged pairs): the rules allow both.
    for (const Case& k : {Case{PromptMode::Keywords, "团圆", "团圆"}, Case{PromptMode::Keywords, "平安", "平安"},
                          Case{PromptMode::Keywords, "财源", "财源"}, Case{PromptMode::Acrostic, "金玉", "金玉"}}) {
        GenerationSpec spec = testing::PromptCase{k.mode, k.text, 7}.unrankedSpec(4);
        spec.sampling.seed = 5;
        spec.year = 2027;
        for (const auto& c : generateCouplets(*model, *decoder, spec)) {
            const bool holds = c.hengpi.find(k.theme) != std::string::npos
                || (k.mode == PromptMode::Acrostic && c.upper.find("满堂") != std::string::npos
                    && (c.hengpi.find("金") != std::string::npos || c.hengpi.find("玉") != std::string::npos));
            if (!holds)
                ::couplet::test::fail(__FILE__, __LINE__, std::string(k.text) + ": " + c.upper + " / " + c.lower + " / " + c.hengpi);
            CHECK(c.hengpi != "金玉良缘"); // the wedding's, not a name's
        }
    }
    // A name no phrase holds whole: one of its characters (德顺 -> 德泽流芳, 厚德载物, 风调雨顺 ...).
    GenerationSpec name = testing::PromptCase{PromptMode::Acrostic, "德顺", 7}.unrankedSpec(4);
    name.sampling.seed = 5;
    name.year = 2027;
    for (const auto& c : generateCouplets(*model, *decoder, name))
        if (c.hengpi.find("德") == std::string::npos && c.hengpi.find("顺") == std::string::npos)
            ::couplet::test::fail(__FILE__, __LINE__, "德顺: " + c.upper + " / " + c.lower + " / " + c.hengpi);
}
