#include "stats.h"
#include "fake_decoder.h"
#include "roofline.h"
#include "timed_decoder.h"
#include "batching_bench.h"
#include "tiny_model.h"

#include "couplet_model.h"
#include "model_config.h"
#include "generate.h"
#include "scheduler.h"

#include <check.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

using namespace couplet;

namespace {

std::shared_ptr<const CoupletModel> tinyModel()
{
    static const auto model = [] {
        const auto dir = std::filesystem::temp_directory_path() / "couplet_test_bench_model";
        testing::writeTinyModel(dir, 3);
        return CoupletModel::load(dir, DeviceOptions{"cpu", false, 1});
    }();
    return model;
}

// Prompts of different lengths so that sequences finish at different steps.
std::vector<GenerationSpec> mixedSpecs()
{
    std::vector<GenerationSpec> specs;
    const int lengths[] = {5, 7, 9, 3, 7, 5};
    const char* keywords[] = {"春", "福", "龙凤", "吉祥", "山水", "花月"};
    for (int i = 0; i < 6; ++i) {
        GenerationSpec s;
        s.keywords = keywords[i];
        s.length = lengths[i];
        s.sampling.greedy = true;
        specs.push_back(s);
    }
    return specs;
}

// Runs the specs in waves of `batch` (the static way) and returns each
// request's generated tokens by its index.
std::map<int, std::vector<int>> runWaves(Decoder& decoder, int batch)
{
    const auto model = tinyModel();
    const auto specs = mixedSpecs();
    std::map<int, std::vector<int>> tokens;
    SchedulerSettings settings;
    settings.maxBatch = batch;
    settings.maxWaitMs = 0;
    Scheduler scheduler(decoder, settings);
    for (std::size_t first = 0; first < specs.size(); first += static_cast<std::size_t>(batch)) {
        for (std::size_t i = first; i < std::min(specs.size(), first + static_cast<std::size_t>(batch)); ++i) {
            SequenceRequest r;
            r.priority = Priority::Bulk;
            r.policy = model->makePolicy(specs[i], 0);
            r.onFinish = [&tokens, i](const SequenceResult& result) {
                if (result.status != RequestStatus::Done) std::fprintf(stderr, "failed: %s\n", result.error.c_str());
                CHECK(result.status == RequestStatus::Done);
                tokens[static_cast<int>(i)] = result.tokens;
            };
            scheduler.submit(std::move(r));
        }
        runToCompletion(scheduler);
    }
    return tokens;
}

} // namespace

COUPLET_TEST(paddedDecodingComputesFullBatchesAndKeepsTheTokens)
{
    const auto model = tinyModel();
    auto plainInner = model->makeDecoder();
    bench::TimedDecoder plain(*plainInner);
    const auto expected = runWaves(plain, 4);
    CHECK_EQ(expected.size(), std::size_t{6});

    auto paddedInner = model->makeDecoder();
    bench::TimedDecoder padded(*paddedInner);
    padded.setPadding(4);
    const auto got = runWaves(padded, 4);
    CHECK(got == expected);

    const auto& t = padded.totals();
    CHECK(t.decodeCalls > 0);
    CHECK_EQ(t.paddedRows, 4 * t.decodeCalls);
    // Sequences of different lengths leave rows idle before their wave ends.
    CHECK(t.decodedRows < t.paddedRows);
    CHECK_EQ(t.decodedRows, plain.totals().decodedRows);
    CHECK_EQ(plain.totals().paddedRows, plain.totals().decodedRows);
}

namespace {

// A fake decoder with threads of its own: parallelFor splits the rows in two
// chunks and counts the calls, as a real decoder splits them over its threads.
class SplittingDecoder : public couplet::test::FakeDecoder {
public:
    int parallelCalls = 0;
    void parallelFor(int n, const std::function<void(int, int)>& body) override
    {
        ++parallelCalls;
        body(0, n / 2);
        body(n / 2, n);
    }
    std::size_t bytesPerRow() const override { return 4096; }
};

} // namespace

// The benchmark measures the scheduler as it runs without the wrapper: the
// rows' choices on the inner decoder's threads (they ran on one thread when
// the wrapper fell back to Decoder's serial parallelFor), and its row size.
COUPLET_TEST(timedDecoderKeepsTheInnerDecodersThreads)
{
    SplittingDecoder inner;
    bench::TimedDecoder timed(inner);
    CHECK_EQ(timed.bytesPerRow(), std::size_t{4096});
    std::vector<int> seen(10, 0);
    timed.parallelFor(10, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) ++seen[static_cast<std::size_t>(i)];
    });
    CHECK_EQ(inner.parallelCalls, 1);
    CHECK(std::all_of(seen.begin(), seen.end(), [](int v) { return v == 1; }));
}

// The roofline counts the prompt work as well as the generated tokens: every
// prefilled prompt and its tokens, each token attending to the positions up
// to its own, and one output projection per prompt.
COUPLET_TEST(prefilledPromptsAreCountedForTheRoofline)
{
    const auto model = tinyModel();
    auto inner = model->makeDecoder();
    bench::TimedDecoder timed(*inner);
    inner->reserveRows(2);
    std::vector<float> logits;
    const std::vector<PrefillItem> items = {{0, {1, 2, 3}}, {1, {4, 5}}};
    timed.prefill(items, logits);
    const auto& t = timed.totals();
    CHECK_EQ(t.prefillItems, 2LL);
    CHECK_EQ(t.prefillTokens, 5LL);
    CHECK_EQ(t.prefillContextSum, (1LL + 2 + 3) + (1 + 2));

    ModelConfig c;
    c.dim = 8;
    c.layers = 2;
    c.mlpHidden = 32;
    c.vocabSize = 100;
    // A generated token costs a prompt token's layers plus the output projection.
    CHECK_EQ(bench::Roofline::flopsPerToken(c, 5) - bench::Roofline::flopsPerPromptToken(c, 5), 2.0 * 8 * 100);
    // Attention grows by 4 x layers x dim FLOPs per position attended.
    CHECK_EQ(bench::Roofline::flopsPerPromptToken(c, 6) - bench::Roofline::flopsPerPromptToken(c, 5), 4.0 * 2 * 8);

    bench::BatchPoint p;
    p.steps = 4;
    p.seconds = 2;
    p.tokensPerSecond = 0;
    p.prefillItems = t.prefillItems;
    p.prefillTokens = t.prefillTokens;
    p.prefillMeanContext = static_cast<double>(t.prefillContextSum) / static_cast<double>(t.prefillTokens);
    bench::RooflinePoint r;
    r.peakGflops = 1;
    bench::Roofline::rateDecoding(r, *model, p);
    const ModelConfig mc = ModelConfig::load(std::filesystem::temp_directory_path() / "couplet_test_bench_model" / "config.json");
    const double flops = 5 * bench::Roofline::flopsPerPromptToken(mc, 9.0 / 5) + 2 * 2.0 * mc.dim * mc.vocabSize;
    CHECK_NEAR(r.workGflops, flops / 2 / 1e9, 1e-12);
    CHECK_NEAR(r.promptTokensPerStep, 5.0 / 4, 1e-12);
    // Per CPU second: the same work over the process's CPU time.
    p.cpuSeconds = 4;
    r.peakCpuGflops = 2;
    bench::Roofline::rateDecoding(r, *model, p);
    CHECK_NEAR(r.workCpuGflops, flops / 4 / 1e9, 1e-12);
    CHECK_NEAR(r.workCpuFractionOfPeak, r.workCpuGflops / 2, 1e-12);
}

// The reranking latency part times each request both ways on the real model
// and reports the ratio of the medians; reranking samples kRerankPool
// candidates for one asked for.
COUPLET_TEST(rerankLatencyTimesBothWays)
{
    bench::BatchingBench runner(tinyModel());
    const bench::RerankPoint p = runner.rerankLatency(5);
    CHECK_EQ(p.samples, 5);
    CHECK_EQ(p.sampled, kRerankPool);
    CHECK(p.plainP50Ms > 0 && p.rerankP50Ms > 0);
    CHECK(p.plainP95Ms >= p.plainP50Ms && p.rerankP95Ms >= p.rerankP50Ms);
    CHECK_NEAR(p.ratio, p.rerankP50Ms / p.plainP50Ms, 1e-12);
}
