#include "couplet_model.h"
#include "generate.h"
#include "scheduler.h"
#include "utf8.h"

#include <check.h>

#include <map>

using namespace couplet;

namespace {

std::shared_ptr<const CoupletModel> shipped()
{
    static auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    return model;
}

std::vector<GenerationSpec> mixedSpecs()
{
    std::vector<GenerationSpec> out;
    auto add = [&](PromptMode mode, const char* text, int length) {
        GenerationSpec s;
        s.mode = mode;
        (mode == PromptMode::Upper ? s.upper : mode == PromptMode::Acrostic ? s.acrostic : s.keywords) = text;
        s.length = length;
        s.sampling.greedy = true;
        out.push_back(s);
    };
    add(PromptMode::Keywords, "五福", 7);
    add(PromptMode::Keywords, "龙年 生意", 5);
    add(PromptMode::Upper, "春回大地千山秀", 0);
    add(PromptMode::Acrostic, "家和", 9);
    add(PromptMode::Keywords, "平安", 0);
    add(PromptMode::Upper, "天增岁月人增寿", 0);
    return out;
}

} // namespace

// Continuous batching must not change what a request writes: greedy
// requests decoded together give exactly the tokens each gives alone.
COUPLET_TEST(batchedGreedyEqualsAlone)
{
    const auto model = shipped();
    const auto specs = mixedSpecs();
    std::vector<std::vector<int>> alone;
    for (const auto& spec : specs) {
        auto decoder = model->makeDecoder();
        Scheduler scheduler(*decoder, SchedulerSettings{1, 0, 2048});
        SequenceRequest r;
        r.policy = model->makePolicy(spec);
        r.onFinish = [&](const SequenceResult& result) { alone.push_back(result.tokens); };
        scheduler.submit(std::move(r));
        runToCompletion(scheduler);
    }
    auto decoder = model->makeDecoder();
    // Fewer slots than requests, so rows are reused and moved as sequences finish.
    Scheduler scheduler(*decoder, SchedulerSettings{4, 0, 2048});
    std::map<std::size_t, std::vector<int>> together;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        SequenceRequest r;
        r.priority = i % 2 == 0 ? Priority::Bulk : Priority::Interactive;
        r.policy = model->makePolicy(specs[i]);
        r.onFinish = [&, i](const SequenceResult& result) { together[i] = result.tokens; };
        scheduler.submit(std::move(r));
    }
    runToCompletion(scheduler);
    CHECK_EQ(together.size(), specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) CHECK(together[i] == alone[i]);
}

COUPLET_TEST(streamedDeltasAddUpToTheCouplet)
{
    const auto model = shipped();
    auto decoder = model->makeDecoder();
    for (auto spec : mixedSpecs()) {
        spec.candidates = 3;
        spec.sampling.greedy = false;
        spec.sampling.seed = 9;
        std::map<int, std::string> streamed;
        const auto couplets = generateCouplets(*model, *decoder, spec, [&](int i, std::string_view d) {
            CHECK_EQ(utf8::firstInvalid(d), std::string_view::npos); // never half a character
            streamed[i] += d;
        });
        // Every sampled candidate streams; the kept ones are among them.
        std::vector<std::string> texts;
        for (const auto& [i, text] : streamed) texts.push_back(text);
        for (const auto& c : couplets)
            CHECK(std::find(texts.begin(), texts.end(), c.upper + "\n" + c.lower + "\n" + c.hengpi) != texts.end());
        CHECK_EQ(couplets.size(), std::size_t(3));
        CHECK_EQ(streamed.size(), static_cast<std::size_t>(sampledCandidates(spec)));
    }
}

COUPLET_TEST(shippedModelRejectsBadInputWithReasons)
{
    const auto model = shipped();
    GenerationSpec s;
    s.keywords = "Happy New Year";
    CHECK(model->validate(s).find("Chinese") != std::string::npos);
    s.keywords = std::string(200, 'a');
    CHECK(!model->validate(s).empty());
    s.mode = PromptMode::Upper;
    s.upper = "";
    CHECK(model->validate(s).find("empty") != std::string::npos);
    s.upper = "一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四";
    CHECK(model->validate(s).find("too long") != std::string::npos);
}
