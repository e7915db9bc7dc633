#include "check.h"
#include "tiny_model.h"

#include "couplet_model_generator.h"
#include "generate.h"
#include "scheduler_row_generator.h"
#include "utf8.h"

#include <cmath>
#include <map>
#include <optional>

using namespace couplet;

namespace {

struct Rig {
    std::filesystem::path dir = couplet::testing::freshTempDir("row-generator");
    std::shared_ptr<const CoupletModel> model;
    std::unique_ptr<CoupletModelGenerator> couplets;
    std::unique_ptr<Decoder> decoder;
    std::unique_ptr<Scheduler> scheduler;
    std::unique_ptr<SchedulerRowGenerator> generator;

    ~Rig()
    {
        generator.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }

    Rig()
    {
        couplet::testing::writeTinyModel(dir / "model");
        DeviceOptions options;
        options.device = "cpu";
        options.threads = 1;
        model = CoupletModel::load(dir / "model", options);
        decoder = model->makeDecoder();
        SchedulerSettings settings;
        settings.maxBatch = 4;
        settings.maxWaitMs = 0;
        scheduler = std::make_unique<Scheduler>(*decoder, settings);
        couplets = std::make_unique<CoupletModelGenerator>(model);
        generator = std::make_unique<SchedulerRowGenerator>(*scheduler, *couplets, "tiny", SchedulerRowGenerator::Options{7, true, {}});
    }
};

PromptRow keywordsRow(std::uint64_t number, const std::string& keywords, int length, int candidates = 1)
{
    PromptRow row;
    row.recordNumber = number;
    row.spec.keywords = keywords;
    row.spec.length = length;
    row.spec.candidates = candidates;
    row.spec.sampling.seed = 100 + number;
    return row;
}

// Polls until every submitted row reported; guards against a hang.
void pollUntil(SchedulerRowGenerator& generator, const std::function<bool()>& done)
{
    for (int i = 0; i < 100000 && !done(); ++i) generator.poll();
    CHECK(done());
}

void checkWellFormed(const RowResult& r, std::size_t length)
{
    CHECK_EQ(r.error, std::string());
    CHECK(r.status == RowStatus::Ok);
    CHECK_EQ(utf8::length(r.couplet.upper), length);
    CHECK_EQ(utf8::length(r.couplet.lower), length);
    CHECK_EQ(utf8::length(r.couplet.hengpi), std::size_t{4});
    CHECK_EQ(r.model, std::string("tiny"));
    CHECK(r.latencyMs >= 0);
}

} // namespace

COUPLET_TEST(rowsBecomeWellFormedCouplets)
{
    Rig rig;
    std::map<std::uint64_t, RowResult> results;
    const auto collect = [&](std::uint64_t n) { return [&, n](RowResult r) { results[n] = std::move(r); }; };
    rig.generator->submit(keywordsRow(1, "春风", 7), collect(1));
    rig.generator->submit(keywordsRow(2, "福", 5, 3), collect(2));
    PromptRow upper;
    upper.recordNumber = 3;
    upper.spec.mode = PromptMode::Upper;
    upper.spec.upper = "春满人家百花开";
    rig.generator->submit(upper, collect(3));
    pollUntil(*rig.generator, [&] { return results.size() == 3; });
    checkWellFormed(results[1], 7);
    checkWellFormed(results[2], 5);
    checkWellFormed(results[3], 7);
    CHECK_EQ(results[3].couplet.upper, std::string("春满人家百花开"));
    CHECK_EQ(rig.generator->rowsInFlight(), std::size_t{0});
}

// A row is one CandidateGroup, as in every other door: its couplet is the
// one generateCouplets() returns for the same spec and seed, reranked by
// default and by the model's score alone with --no-rerank. A row's old
// "candidates" (batch's --count) is the number sampled.
COUPLET_TEST(aRowIsTheCandidateGroupsBestCouplet)
{
    Rig rig;
    auto decoder = rig.model->makeDecoder();
    for (const bool rerank : {true, false}) {
        std::optional<RowResult> row;
        PromptRow prompt = keywordsRow(1, "吉祥", 7, 4);
        prompt.spec.sampling.seed = 101;
        prompt.spec.rerank = rerank;
        rig.generator->submit(prompt, [&](RowResult r) { row = std::move(r); });
        pollUntil(*rig.generator, [&] { return row.has_value(); });
        GenerationSpec spec = prompt.spec;
        spec.candidates = 1;
        spec.bestOf = 4;
        const Couplet want = generateCouplets(*rig.model, *decoder, spec).at(0);
        CHECK(row->status == RowStatus::Ok);
        CHECK_EQ(row->couplet.upper + row->couplet.lower + row->couplet.hengpi, want.upper + want.lower + want.hengpi);
        CHECK_EQ(row->couplet.seed, want.seed);
        CHECK(std::abs(row->couplet.score - want.score) < 1e-9);
        CHECK_EQ(row->couplet.parts.duizhang, want.parts.duizhang);
    }
    CHECK_EQ(sampledCandidates(SchedulerRowGenerator::groupSpec(keywordsRow(1, "吉祥", 7, 4).spec)), 4);
    // A row that sets nothing samples the bulk default, not the interactive one.
    CHECK_EQ(sampledCandidates(SchedulerRowGenerator::groupSpec(keywordsRow(1, "吉祥", 7).spec)), kBulkRerankFactor);
    GenerationSpec asTheEditor = keywordsRow(1, "吉祥", 7).spec;
    asTheEditor.bestOf = kRerankPool;
    CHECK_EQ(sampledCandidates(SchedulerRowGenerator::groupSpec(asTheEditor)), kRerankPool);
    GenerationSpec plain = keywordsRow(1, "吉祥", 7).spec;
    plain.rerank = false;
    CHECK_EQ(sampledCandidates(SchedulerRowGenerator::groupSpec(plain)), 1);
}

// Asked for alternatives, a row is still the group's best couplet, and the
// other candidates of the same pool come back after it, ranked as
// generateCouplets() ranks them (no more candidates are sampled).
COUPLET_TEST(alternativesAreTheRestOfTheSamePoolRanked)
{
    Rig rig;
    auto decoder = rig.model->makeDecoder();
    CHECK(rig.generator->offerAlternatives());
    std::optional<RowResult> row;
    PromptRow prompt = keywordsRow(1, "吉祥", 7, 4);
    rig.generator->submit(prompt, [&](RowResult r) { row = std::move(r); });
    pollUntil(*rig.generator, [&] { return row.has_value(); });
    GenerationSpec spec = prompt.spec;
    spec.candidates = 4;
    spec.bestOf = 4;
    const auto want = generateCouplets(*rig.model, *decoder, spec);
    CHECK(row->status == RowStatus::Ok);
    CHECK_EQ(row->alternatives.size() + 1, want.size());
    CHECK_EQ(row->couplet.upper + row->couplet.lower, want.at(0).upper + want.at(0).lower);
    for (std::size_t i = 0; i < row->alternatives.size() && i + 1 < want.size(); ++i)
        CHECK_EQ(row->alternatives[i].upper + row->alternatives[i].lower, want[i + 1].upper + want[i + 1].lower);
}

COUPLET_TEST(unusableRowsFailAloneWithTheModelsReason)
{
    Rig rig;
    std::map<std::uint64_t, RowResult> results;
    const auto collect = [&](std::uint64_t n) { return [&, n](RowResult r) { results[n] = std::move(r); }; };
    rig.generator->submit(keywordsRow(1, "龘", 7), collect(1));     // Han, not in the vocabulary
    rig.generator->submit(keywordsRow(2, "hello", 7), collect(2));  // not Chinese
    rig.generator->submit(keywordsRow(3, "新年", 7), collect(3));
    CHECK(results.empty());   // results arrive from poll(), never from submit()
    pollUntil(*rig.generator, [&] { return results.size() == 3; });
    CHECK(results[1].status == RowStatus::Invalid);
    CHECK(results[1].error.find("does not know") != std::string::npos);
    CHECK(results[2].status == RowStatus::Invalid);
    CHECK(results[2].error.find("Chinese") != std::string::npos);
    checkWellFormed(results[3], 7);
    CHECK(!rig.generator->validate(keywordsRow(4, "龘", 7).spec).empty());
}

COUPLET_TEST(cancelAllDropsRowsWithoutCallbacks)
{
    Rig rig;
    int calls = 0;
    for (std::uint64_t n = 1; n <= 6; ++n) rig.generator->submit(keywordsRow(n, "春", 7), [&](RowResult) { ++calls; });
    rig.generator->poll();
    rig.generator->cancelAll();
    CHECK_EQ(rig.generator->rowsInFlight(), std::size_t{0});
    CHECK(!rig.scheduler->hasWork());
    for (int i = 0; i < 10; ++i) rig.generator->poll();
    CHECK_EQ(calls, 0);
}
