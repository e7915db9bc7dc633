// One year animal per couplet (生肖): a 龙年 couplet is not answered with 蛇岁,
// nor a 羊 year's with 祥猴, and a shop's opening gets no 龙年吉祥 横批.
#include "couplet_constraints.h"
#include "couplet_model.h"
#include "generate.h"
#include "prompt_case.h"
#include "spring_festival.h"
#include "tone_table.h"
#include "utf8.h"
#include "vocab.h"
#include "zodiac.h"

#include <check.h>

#include <algorithm>
#include <cstdio>
#include <set>

using namespace couplet;

namespace {

std::vector<char32_t> characters(std::u32string_view text)
{
    return {text.begin(), text.end()};
}

bool allows(const std::vector<int>& allowed, int token)
{
    return std::find(allowed.begin(), allowed.end(), token) != allowed.end();
}

// The year animals a finished couplet names.
std::set<int> animalsOf(const Couplet& c)
{
    std::set<int> out;
    for (char32_t ch : utf8::decode(c.upper + c.lower + c.hengpi))
        if (const int z = zodiacIndex(ch); z >= 0) out.insert(z);
    return out;
}

struct Rig {
    Vocab vocab{characters(U"吉羊猴龙蛇马辞旧岁贺新春年大祥福五临门精神，")};
    ToneTable tones;
    TokenClasses classes{vocab, tones};
    PhraseTrie trie;
    Rig()
    {
        for (std::u32string_view p : {U"龙年大吉", U"羊年吉祥", U"五福临门", U"龙马精神"})
            trie.insert(vocab.encode(utf8::encode(std::u32string(p))), zodiacOf(p));
    }
    int id(char32_t c) const { return vocab.id(c); }
    void write(CoupletConstraints& c, std::u32string_view text) const
    {
        for (char32_t ch : text) {
            CHECK(allows(c.allowed(), id(ch)));
            c.advance(id(ch));
        }
    }
};

} // namespace

COUPLET_TEST(zodiacTablesKnowTheCycle)
{
    CHECK_EQ(zodiacIndex(U'鼠'), 0);
    CHECK_EQ(zodiacIndex(U'羊'), 7);
    CHECK_EQ(zodiacIndex(U'猪'), 11);
    CHECK_EQ(zodiacIndex(U'犬'), zodiacIndex(U'狗'));
    CHECK_EQ(zodiacIndex(U'凤'), -1);
    CHECK_EQ(firstZodiac(U"五福吉羊"), 7);
    CHECK_EQ(zodiacOf(U"五福临门"), -1);
    CHECK_EQ(zodiacOf(U"龙腾龙跃"), 4);
    CHECK_EQ(zodiacOf(U"龙马精神"), kManyZodiac);
}

COUPLET_TEST(theFirstAnimalOfTheUpperLineIsTheOnlyOne)
{
    const Rig r;
    ConstraintSpec spec;
    spec.length = 5;
    CoupletConstraints c(r.classes, r.trie, spec);
    CHECK(allows(c.allowed(), r.id(U'龙')) && allows(c.allowed(), r.id(U'羊'))); // none named yet: any
    r.write(c, U"吉羊");
    CHECK_EQ(c.yearAnimal(), 7);
    CHECK(!allows(c.allowed(), r.id(U'猴'))); // the 上联 keeps to 羊
    r.write(c, U"辞旧岁");
    c.advance(tok::kLower);
    const auto& lower = c.allowed();
    CHECK(!allows(lower, r.id(U'猴')) && !allows(lower, r.id(U'龙')) && !allows(lower, r.id(U'蛇')));
    CHECK(allows(lower, r.id(U'祥')) && allows(lower, r.id(U'春')));
    r.write(c, U"祥福贺新春");
    c.advance(tok::kHengpi);
    const auto& hengpi = c.allowed(); // 羊年吉祥 and 五福临门, not 龙年大吉 nor 龙马精神
    CHECK(allows(hengpi, r.id(U'羊')) && allows(hengpi, r.id(U'五')));
    CHECK(!allows(hengpi, r.id(U'龙')));
}

COUPLET_TEST(aCoupletWithoutAnAnimalGetsNoAnimalHengpi)
{
    const Rig r;
    ConstraintSpec spec;
    spec.length = 2;
    CoupletConstraints c(r.classes, r.trie, spec);
    r.write(c, U"新春");
    c.advance(tok::kLower);
    CHECK(!allows(c.allowed(), r.id(U'龙')) && !allows(c.allowed(), r.id(U'马'))); // the 下联 adds none
    r.write(c, U"大福");
    c.advance(tok::kHengpi);
    CHECK_EQ(c.allowed(), std::vector<int>{r.id(U'五')});
}

COUPLET_TEST(thePromptsAnimalRulesFromTheStart)
{
    const Rig r;
    ConstraintSpec spec;
    spec.length = 3;
    spec.yearAnimal = 4; // 龙, as the keywords 龙年 say
    CoupletConstraints c(r.classes, r.trie, spec);
    CHECK(allows(c.allowed(), r.id(U'龙')) && !allows(c.allowed(), r.id(U'羊')));
    spec.upper = r.vocab.encode("吉羊岁");
    spec.yearAnimal = -1;
    CoupletConstraints given(r.classes, r.trie, spec); // a given 上联 names its own
    CHECK_EQ(given.yearAnimal(), 7);
    CHECK(!allows(given.allowed(), r.id(U'猴')));
}

COUPLET_TEST(mixedZodiacLetsTheYearsChange)
{
    const Rig r;
    ConstraintSpec spec;
    spec.length = 5;
    spec.mixedZodiac = true; // 金蛇辞旧岁 / 骏马迎新春
    CoupletConstraints c(r.classes, r.trie, spec);
    r.write(c, U"吉蛇辞旧岁");
    c.advance(tok::kLower);
    CHECK(allows(c.allowed(), r.id(U'马')));
    r.write(c, U"祥马贺新春");
    c.advance(tok::kHengpi);
    CHECK(allows(c.allowed(), r.id(U'龙')));
}

COUPLET_TEST(shippedModelNamesOneYearAnimal)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    auto decoder = model->makeDecoder();
    struct Case {
        testing::PromptCase prompt;
        int animal; // the prompt's, -1 = none
    };
    const Case cases[] = {{{PromptMode::Keywords, "龙年", 7}, 4}, {{PromptMode::Keywords, "羊年 吉祥", 7}, 7},
                          {{PromptMode::Acrostic, "吉祥", 5}, -1}, {{PromptMode::Upper, "金羊送福临门第", 0}, 7},
                          {{PromptMode::Keywords, "开业 大吉", 7}, -1}};
    int checked = 0, mixedWhenAllowed = 0;
    for (const Case& k : cases) {
        GenerationSpec spec = k.prompt.unrankedSpec(8);
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            spec.sampling.seed = seed * 31;
            spec.mixedZodiac = false;
            for (const auto& c : generateCouplets(*model, *decoder, spec)) {
                const int animal = k.animal >= 0 ? k.animal : firstZodiac(utf8::decode(c.upper));
                const auto named = animalsOf(c);
                CHECK(named.empty() || (named.size() == 1 && *named.begin() == animal));
                ++checked;
            }
            spec.mixedZodiac = true;
            for (const auto& c : generateCouplets(*model, *decoder, spec)) mixedWhenAllowed += animalsOf(c).size() > 1;
        }
    }
    CHECK_EQ(checked, 5 * 3 * 8);
    // Left alone the model does mix them (蛇岁 for 龙年): the rule above is what keeps them apart.
    CHECK(mixedWhenAllowed > 0);
}

COUPLET_TEST(yearsHaveTheirAnimals)
{
    CHECK_EQ(zodiacOfYear(2027), 7);                    // 羊
    CHECK_EQ(zodiacOfYear(2024), 4);                    // 龙
    CHECK_EQ(zodiacOfYear(2020), 0);                    // 鼠
    CHECK_EQ(zodiacOfYear(1900), 0);
    CHECK_EQ(zodiacOfYear(2031), 11);                   // 猪
    CHECK(kZodiacAnimals[static_cast<std::size_t>(zodiacOfYear(2027))] == U'羊');
}

// With a year (2027), a prompt that names no animal gets no other year's
// (金猴, 金鸡, 腾龙 came out for 金玉 and 生意兴隆 without one); a prompt that
// names its own (龙年) keeps it.
COUPLET_TEST(shippedModelWritesOnlyTheYearsAnimal)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    auto decoder = model->makeDecoder();
    // 辞旧 迎新: since 藏头 runs on weights of its own (acrostic.safetensors),
    // which seldom name an animal unasked, the keyword prompt that sees a year
    // off (骏马辞旧) shows that the model does without the rule.
    const testing::PromptCase unnamed[] = {{PromptMode::Acrostic, "金玉", 7}, {PromptMode::Keywords, "生意 兴隆", 7},
                                           {PromptMode::Acrostic, "吉祥", 5}, {PromptMode::Keywords, "辞旧 迎新", 7}};
    int checked = 0, otherWithoutYear = 0, goats = 0;
    for (const auto& prompt : unnamed) {
        GenerationSpec spec = prompt.unrankedSpec(8);
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            spec.sampling.seed = seed * 17;
            spec.year = 0;
            for (const auto& c : generateCouplets(*model, *decoder, spec)) {
                const auto named = animalsOf(c);
                otherWithoutYear += std::any_of(named.begin(), named.end(), [](int z) { return z != 7; });
            }
            spec.year = 2027;
            for (const auto& c : generateCouplets(*model, *decoder, spec)) {
                const auto named = animalsOf(c);
                CHECK(named.empty() || named == std::set<int>{7});
                goats += !named.empty();
                ++checked;
            }
        }
    }
    CHECK_EQ(checked, 4 * 3 * 8);
    CHECK(otherWithoutYear > 0); // the model does name other years when no year is given
    // The goat itself is never kept out: the weights trained on judged couplets (which hold
    // no year animal) seldom name it unasked (0 of 72 here before 辞旧 迎新 joined; the R4 weights before them, 4),
    // so the prompt asks for it (吉羊开泰运).
    std::printf("couplets naming the goat unasked, with the year 2027: %d of %d\n", goats, checked);
    // A prompt that names a year's animal, for 2027: how many of 8 couplets name it, none another.
    const auto namingOnly = [&](const char* keywords, int animal) {
        GenerationSpec spec = testing::PromptCase{PromptMode::Keywords, keywords, 7}.unrankedSpec(8);
        spec.year = 2027;
        spec.sampling.seed = 5;
        int naming = 0;
        for (const auto& c : generateCouplets(*model, *decoder, spec)) {
            const auto named = animalsOf(c);
            CHECK(named.empty() || named == std::set<int>{animal});
            naming += !named.empty();
        }
        return naming;
    };
    CHECK(namingOnly("羊年", 7) > 0);
    CHECK(namingOnly("龙年", 4) > 0); // the prompt's 龙 wins over the year
}

// Every door's default year: the coming Spring Festival's, the festival's own
// day included (2027: 6 February).
COUPLET_TEST(theDefaultYearIsTheComingSpringFestivals)
{
    using namespace std::chrono;
    CHECK_EQ(comingSpringFestivalYear(2026y / December / 6), 2027);
    CHECK_EQ(comingSpringFestivalYear(2026y / February / 17), 2026);
    CHECK_EQ(comingSpringFestivalYear(2026y / February / 18), 2027);
    CHECK_EQ(comingSpringFestivalYear(2027y / February / 6), 2027);
    CHECK_EQ(comingSpringFestivalYear(2027y / February / 7), 2028);
    CHECK_EQ(comingSpringFestivalYear(2028y / January / 26), 2028);
    CHECK_EQ(comingSpringFestivalYear(2028y / January / 27), 2029);
    CHECK(springFestivalDate(2029) == 2029y / February / 13);
    CHECK(springFestivalDate(2030) == 2030y / February / 3);
    CHECK(!springFestivalDate(2100).has_value());
    CHECK_EQ(comingSpringFestivalYear(2100y / March / 1), 2101); // past the table: 1 February
    const int today = comingSpringFestivalYear();
    CHECK(today >= 2026 && today <= kMaxYear);
    CHECK_EQ(parseYearText("", 2027), 2027);
    CHECK_EQ(parseYearText("2030", 2027), 2030);
    CHECK_EQ(parseYearText("none", 2027), 0);
    CHECK_EQ(parseYearText("0", 2027), 0);
    CHECK_EQ(parseYearText("无", 2027), 0);
    CHECK_EQ(parseYearText("羊年", 2027), -1);
    CHECK_EQ(parseYearText("10000", 2027), -1);
}
