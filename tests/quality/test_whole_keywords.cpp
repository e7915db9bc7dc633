// A keyword is never written torn across words (新居 in 新居士, 家和 in 千家和睦,
// 金榜 in 金榜样), by the word table: the rule on a small word table, and on the shipped model.
#include "couplet_judge.h"
#include "couplet_model.h"
#include "shipped_samples.h"
#include "utf8.h"
#include "vocab.h"
#include "whole_keywords.h"
#include "word_table.h"
#include "word_terms.h"

#include <check.h>

#include <algorithm>
#include <sstream>

using namespace couplet;

namespace {

struct Small {
    static constexpr std::u32string_view kChars = U"千家和睦新居士乐五福临门迎春人生意兴隆";
    Vocab vocab{std::vector<char32_t>(kChars.begin(), kChars.end())};
    WordTable words;
    WholeKeywords rule;
    Small()
    {
        for (const auto& [w, f] : std::initializer_list<std::pair<std::u32string, double>>{
                 {U"千家", 80}, {U"家和", 20}, {U"和睦", 170}, {U"新居", 30}, {U"居士", 200}, {U"乐", 900},
                 {U"五福", 10}, {U"福临", 1341}, {U"五福临门", 100}, {U"迎春", 300}, {U"人生", 90000}, {U"意", 50},
                 {U"生意", 600}, {U"兴隆", 300}, {U"意兴", 37}, {U"生意兴隆", 36}, {U"千", 500}, {U"家", 800},
                 {U"和", 900}, {U"睦", 5}, {U"新", 900}, {U"居", 50}, {U"士", 50}, {U"门", 700}, {U"人", 900}})
            words.add(w, f, 'n');
        rule.build(words, vocab);
    }
    std::vector<int> tokens(const char* text) const { return vocab.encode(text); }
    std::vector<int> torn(const char* line, const char* keyword) const
    {
        std::vector<int> out;
        rule.tornNext(tokens(line), tokens(keyword), out);
        std::sort(out.begin(), out.end());
        return out;
    }
};

} // namespace

COUPLET_TEST(theCharacterThatWouldTearAKeywordIsHeldBack)
{
    const Small s;
    // 千家 + 和 would read 千家 / 和: 家和 torn on its left.
    CHECK((s.torn("千家", "家和") == std::vector<int>{s.vocab.id(U'和')}));
    // 新居 + 士 would read 新 / 居士; 乐 makes no word with 居.
    CHECK((s.torn("新居", "新居") == std::vector<int>{s.vocab.id(U'士')}));
    // 五福 + 临 starts 五福临门, a word that holds 五福 whole.
    CHECK(s.torn("五福", "五福").empty());
    // 生意 + 兴 starts 生意兴隆; 人生 + 意 would read 人生 / 意.
    CHECK(s.torn("生意", "生意").empty());
    CHECK((s.torn("人生", "生意") == std::vector<int>{s.vocab.id(U'意')}));
    // Nothing to hold back where the keyword is neither due nor just written.
    CHECK(s.torn("迎春", "家和").empty());
    CHECK(s.torn("", "家和").empty());
}

// On the shipped model, the rule against the rerank's own test of a torn
// keyword (the same word table): many torn without it, none or nearly none with it.
COUPLET_TEST(theShippedModelWritesItsKeywordsWhole)
{
    const auto model = testing::shippedModel();
    const WordTable& words = *model->judgeTables().words;
    CHECK(!words.empty());
    int tornOff = 0, tornOn = 0, keptOff = 0, keptOn = 0, n = 0;
    for (const char* keywords : {"乔迁 新居", "家和", "金榜 题名", "生意 兴隆", "新春"}) {
        GenerationSpec spec;
        spec.keywords = keywords;
        spec.length = 7;
        spec.year = 2027;
        spec.wholeKeywords = false;
        const auto off = testing::sampleShipped(spec, 32);
        spec.wholeKeywords = true;
        const auto on = testing::sampleShipped(spec, 32);
        CHECK_EQ(off.size(), on.size());
        for (std::size_t i = 0; i < off.size(); ++i, ++n) {
            std::istringstream split(keywords);
            for (std::string k; split >> k;) {
                const auto kw = utf8::decode(k);
                for (const auto* c : {&off[i], &on[i]}) {
                    const bool torn = tearsKeyword(words, utf8::decode(c->upper), kw) || tearsKeyword(words, utf8::decode(c->lower), kw);
                    const bool there = (c->upper + c->lower).find(k) != std::string::npos;
                    (c == &off[i] ? tornOff : tornOn) += torn;
                    (c == &off[i] ? keptOff : keptOn) += there && !torn;
                }
            }
        }
    }
    std::printf("%d couplets: keywords torn %d without the rule, %d with it; present and whole %d / %d\n", n, tornOff,
                tornOn, keptOff, keptOn);
    CHECK(tornOff >= 10);
    CHECK(tornOn * 5 <= tornOff);
    CHECK(keptOn >= keptOff);
}
