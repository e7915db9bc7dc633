#include "tiny_model.h"

#include "couplet_check.h"
#include "couplet_model.h"
#include "generate.h"
#include "keyword_plan.h"
#include "line_shape.h"
#include "utf8.h"

#include <check.h>

using namespace couplet;

namespace {

std::shared_ptr<const CoupletModel> tinyModel()
{
    static auto model = CoupletModel::load(testing::writeTinyModel(testing::freshTempDir("keywords") / "m", 7),
                                           DeviceOptions{"cpu", false, 1});
    return model;
}

GenerationSpec required(const char* keywords, int length)
{
    GenerationSpec s;
    s.keywords = keywords;
    s.length = length;
    s.keywordsMustAppear = true;
    s.candidates = 8;
    s.rerank = false; // every sampled candidate is checked, not only the best
    s.sampling.temperature = 1.5f;
    return s;
}

} // namespace

COUPLET_TEST(keywordsSplitOnVisibleAndInvisibleSeparators)
{
    const std::vector<std::u32string> two = {U"五福", U"家和"};
    for (const char* text : {"五福 家和", "五福，家和", "五福、家和", "五福；家和", "五福\u3000家和", "五福\u200b家和",
                             "\ufeff五福\u00a0家和\n", " 五福  ,  家和 "})
        CHECK(splitKeywords(text) == two);
    CHECK(splitKeywords("五福家和") == std::vector<std::u32string>{U"五福家和"});
    CHECK(splitKeywords(" \u200b ").empty());
}

COUPLET_TEST(planForcesOnlyWhenTheKeywordsJustFit)
{
    const KeywordPlan plan({{11, 12}, {21}});
    CHECK_EQ(plan.totalLength(), 3);
    CHECK_EQ(plan.forcedToken({}, 4), -1);          // 3 < 4: free
    CHECK_EQ(plan.forcedToken({}, 3), 11);          // just fits: the first keyword starts
    CHECK_EQ(plan.forcedToken({5, 11}, 3), 12);     // continues the keyword the line ends with
    CHECK_EQ(plan.forcedToken({5, 11, 12}, 1), 21); // the one left
    CHECK_EQ(plan.forcedToken({21, 11, 12}, 1), -1);
    CHECK(plan.satisfiedBy({21, 5, 11, 12}));
    CHECK(!plan.satisfiedBy({21, 11, 5, 12})); // a keyword is a contiguous run
}

COUPLET_TEST(everyKeywordAppearsOnManySamples)
{
    const auto model = tinyModel();
    auto decoder = model->makeDecoder();
    std::vector<GenerationSpec> specs = {required("春风", 5), required("万事 如意", 7), required("花 山水 门", 9),
                                         required("吉祥如意", 0), required("福 寿", 7)};
    specs.back().tonePattern = true;
    specs.push_back(required("平安", 5));
    specs.back().acrostic = "龙凤";
    int checked = 0;
    for (auto spec : specs) {
        const auto keywords = splitKeywords(spec.keywords);
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            spec.sampling.seed = seed * 1000;
            for (const auto& c : generateCouplets(*model, *decoder, spec)) {
                const auto up = utf8::decode(c.upper);
                for (const auto& k : keywords) CHECK(up.find(k) != std::u32string::npos);
                CHECK(coupletViolations(c).empty());
                if (spec.length > 0) CHECK_EQ(countCharacters(up), spec.length); // a 九言 line's mark is not counted
                if (!spec.acrostic.empty()) CHECK(c.upper.rfind("龙", 0) == 0);
                ++checked;
            }
        }
    }
    CHECK_EQ(checked, static_cast<int>(specs.size()) * 6 * 8);
}

COUPLET_TEST(keywordsThatCannotFitAreRejectedWithTheReason)
{
    const auto model = tinyModel();
    auto spec = required("吉祥如意 万事", 5);
    CHECK(model->validate(spec).find("do not fit") != std::string::npos);
    spec = required("凤", 7);
    spec.acrostic = "龙凤";
    CHECK(model->validate(spec).find("藏头") != std::string::npos);
    spec.keywordsMustAppear = false;
    CHECK_EQ(model->validate(spec), std::string());
}
