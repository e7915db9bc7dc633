#include "couplet_model.h"
#include "couplet_model_impl.h"
#include "routed_decoder.h"
#include "generate.h"
#include "scheduler.h"
#include "utf8.h"

#include <check.h>

#include <cmath>
#include <cstdio>
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

// Two decoders behind one (RoutedDecoder, acrostic.safetensors): with the same
// weights on both sides, every row's logits are the plain decoder's, through
// admissions, compaction and rows moving between the two, up to the last bits
// that a different batch order changes in the CPU kernels.
COUPLET_TEST(routedDecoderOfOneWeightSetMatchesThePlainOne)
{
    const auto model = shipped();
    const auto& m = implOf(*model);
    if (!m.native) return; // the libtorch decoder: routing is the same class, tested on fakes
    NativeDecoder plain(m.config, m.weights, *m.native);
    RoutedDecoder routed(std::make_unique<NativeDecoder>(m.config, m.weights, *m.native),
                         std::make_unique<NativeDecoder>(m.config, m.weights, *m.native), tok::kAcrostic);
    plain.reserveRows(42);
    routed.reserveRows(42);
    std::vector<std::vector<int>> prompts;
    for (int copy = 0; copy < 7; ++copy)
        for (auto spec : mixedSpecs()) prompts.push_back(model->makePolicy(spec)->promptTokens());
    std::vector<PrefillItem> items;
    for (std::size_t i = 0; i < prompts.size(); ++i) items.push_back({static_cast<int>(i), prompts[i]});
    std::vector<float> a, b;
    plain.prefill(items, a);
    routed.prefill(items, b);
    double worst = 0;
    auto compare = [&] {
        CHECK_EQ(a.size(), b.size());
        for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) worst = std::max(worst, std::abs(double(a[k]) - b[k]));
    };
    compare();
    std::vector<int> positions;
    for (const auto& p : prompts) positions.push_back(static_cast<int>(p.size()));
    for (int step = 0; step < 12; ++step) {
        for (int row : {1, 7, 3}) {
            if (step % 3 != 0 || row >= static_cast<int>(positions.size()) - 1) continue;
            // The row ends: the last row moves into it, as Scheduler::takeRow does.
            const int last = static_cast<int>(positions.size()) - 1;
            plain.copyRow(last, row, positions[static_cast<std::size_t>(last)]);
            routed.copyRow(last, row, positions[static_cast<std::size_t>(last)]);
            positions[static_cast<std::size_t>(row)] = positions[static_cast<std::size_t>(last)];
            positions.pop_back();
        }
        std::vector<DecodeItem> decode;
        for (std::size_t r = 0; r < positions.size(); ++r) decode.push_back({static_cast<int>(r), 10 + step, positions[r]++});
        plain.decode(decode, a);
        routed.decode(decode, b);
        compare();
    }
    std::printf("largest logit difference, routed against plain: %g\n", worst);
    CHECK(worst < 1e-3);
}

// The shipped folder's acrostic.safetensors: a 藏头 prompt runs on its weights,
// every other prompt on model.safetensors', exactly as without the file.
COUPLET_TEST(shippedModelWrites藏头OnItsOwnWeights)
{
    const auto model = shipped();
    CHECK(model->hasAcrosticWeights());
    const auto& m = implOf(*model);
    if (!m.native) return;
    NativeDecoder plain(m.config, m.weights, *m.native);
    auto routed = model->makeDecoder();
    plain.reserveRows(6);
    routed->reserveRows(6);
    std::vector<PrefillItem> items;
    const auto specs = mixedSpecs();
    for (std::size_t i = 0; i < specs.size(); ++i) items.push_back({static_cast<int>(i), model->makePolicy(specs[i])->promptTokens()});
    std::vector<float> a, b;
    plain.prefill(items, a);
    routed->prefill(items, b);
    const auto v = static_cast<std::size_t>(plain.vocabSize());
    int acrostic = 0;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        double diff = 0;
        for (std::size_t k = 0; k < v; ++k) diff = std::max(diff, std::abs(double(a[i * v + k]) - b[i * v + k]));
        if (specs[i].mode == PromptMode::Acrostic) {
            ++acrostic;
            CHECK(diff > 0.01); // other weights
        } else {
            CHECK_EQ(diff, 0.0); // the main weights, untouched
        }
    }
    CHECK(acrostic > 0);
}
