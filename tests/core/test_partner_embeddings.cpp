// Partner embeddings (ModelConfig::partners, partner_track.h): which 上联
// character each 下联 input gets; the training forward pass and the decoders'
// prefill / decode (libtorch, native fp32, bf16 and int8) agree on a tiny model
// whose P is not zero, through row copies; weights grown with `couplet train
// --partners` compute the old function at step 0 on every decoder; config.json
// and the loader.

#include "tiny_model.h"

#include "couplet_model.h"
#include "native_decoder.h"
#include "partner_track.h"
#include "safetensors.h"
#include "torch_decoder.h"
#include "trainer.h"

#include <check.h>

#include <algorithm>
#include <cmath>
#include <sstream>

using namespace couplet;

namespace {

constexpr int kVocab = 83;

int ch(int i) { return tok::kFirstChar + (i * 7) % (kVocab - tok::kFirstChar); }

// <bos> [<lenN>] <up> 上联 <down> 下联 <hp>, the 上联 from `seed`.
std::vector<int> coupletSeq(int seed, int chars, bool lengthToken)
{
    std::vector<int> t{tok::kBos};
    if (lengthToken) t.push_back(tok::lengthToken(chars));
    t.push_back(tok::kUpper);
    for (int i = 0; i < chars; ++i) t.push_back(ch(seed + 3 * i));
    t.push_back(tok::kLower);
    for (int i = 0; i < chars; ++i) t.push_back(ch(seed + 5 * i + 1));
    t.push_back(tok::kHengpi);
    return t;
}

Lm tinyLm(bool partners, float partnerScale = 0.3f, int vocab = kVocab)
{
    torch::manual_seed(13);
    auto config = testing::tinyConfig(vocab);
    config.partners = partners;
    Lm lm(config);
    lm->eval();
    torch::NoGradGuard guard;
    for (auto& p : lm->named_parameters())
        if (p.key() == "partner.weight") p.value().normal_(0.0, partnerScale);
    return lm;
}

// forward() of one sequence: [time][vocab].
std::vector<std::vector<float>> forwardLogits(Lm& lm, const std::vector<int>& seq)
{
    torch::NoGradGuard guard;
    const auto t = torch::tensor(std::vector<int64_t>(seq.begin(), seq.end())).unsqueeze(0);
    const auto logits = lm->forward(t)[0].contiguous();
    std::vector<std::vector<float>> out;
    for (int64_t i = 0; i < logits.size(0); ++i)
        out.emplace_back(logits[i].data_ptr<float>(), logits[i].data_ptr<float>() + logits.size(1));
    return out;
}

double maxDiff(const float* a, const std::vector<float>& b)
{
    double m = 0;
    for (std::size_t i = 0; i < b.size(); ++i) m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
    return m;
}

// Three couplets through `decoder`: one prompt ends at <up> (its partners
// come from decoded tokens), one holds the whole 上联 and <down> (they come
// from the prefill), one stops inside its 上联; after four steps the first
// row finishes and the third is copied into it. Returns, for every logit
// row the decoder gave, the largest difference from `expected(sequence, position)`.
template <typename Expected>
double trafficDifference(Decoder& decoder, Expected expected)
{
    const std::vector<std::vector<int>> seqs = {coupletSeq(1, 5, true), coupletSeq(2, 7, true), coupletSeq(4, 3, false)};
    std::vector<std::size_t> length = {3, 10, 4}; // tokens each row holds
    std::vector<int> seqOfRow = {0, 1, 2};
    decoder.reserveRows(3);
    std::vector<PrefillItem> prompts;
    for (int r = 0; r < 3; ++r)
        prompts.push_back({r, std::vector<int>(seqs[r].begin(), seqs[r].begin() + static_cast<std::ptrdiff_t>(length[r]))});
    std::vector<float> logits;
    decoder.prefill(prompts, logits);
    const std::size_t v = static_cast<std::size_t>(decoder.vocabSize());
    double worst = 0;
    for (int r = 0; r < 3; ++r) worst = std::max(worst, maxDiff(logits.data() + r * v, expected(r, length[r] - 1)));
    for (int step = 0; step < 9; ++step) {
        if (step == 4) {
            decoder.copyRow(2, 0, static_cast<int>(length[2]));
            seqOfRow = {2, 1};
            length = {length[2], length[1]};
        }
        std::vector<DecodeItem> items;
        for (std::size_t r = 0; r < seqOfRow.size(); ++r) {
            const auto& seq = seqs[static_cast<std::size_t>(seqOfRow[r])];
            const std::size_t at = std::min(length[r], seq.size() - 1);
            items.push_back({static_cast<int>(r), seq[at], static_cast<int>(at)});
            length[r] = at + 1;
        }
        decoder.decode(items, logits);
        for (std::size_t r = 0; r < items.size(); ++r)
            worst = std::max(worst, maxDiff(logits.data() + r * v, expected(seqOfRow[r], length[r] - 1)));
    }
    return worst;
}

// The same traffic against the forward pass of `lm`.
double differenceFromForward(Decoder& decoder, Lm& lm)
{
    std::vector<std::vector<std::vector<float>>> full;
    for (const auto& seq : {coupletSeq(1, 5, true), coupletSeq(2, 7, true), coupletSeq(4, 3, false)})
        full.push_back(forwardLogits(lm, seq));
    return trafficDifference(decoder, [&](int seq, std::size_t pos) -> const std::vector<float>& {
        return full[static_cast<std::size_t>(seq)][pos];
    });
}

} // namespace

COUPLET_TEST(eachLowerLineInputGetsTheUpperLineCharacterAtItsPlace)
{
    const auto seq = coupletSeq(1, 4, true); // <bos> <len4> <up> u0..u3 <down> d0..d3 <hp>
    const auto partners = partnersOf(seq.data(), seq.size());
    const std::size_t down = 7;
    CHECK_EQ(seq[down], tok::kLower);
    for (std::size_t p = 0; p < seq.size(); ++p) {
        // <down> predicts d0 and takes u0; d_(i-1) predicts d_i and takes u_i; d3 predicts <hp> and takes none.
        const bool lower = p >= down && p < down + 4;
        CHECK_EQ(partners[p], lower ? seq[3 + (p - down)] : -1);
    }
    // A decoder's row read again from an earlier position forgets what came after it.
    PartnerTrack track;
    for (std::size_t p = 0; p < seq.size(); ++p) track.advance(seq[p], static_cast<int>(p));
    CHECK_EQ(track.advance(ch(40), 4), -1);        // the 上联 rewritten from u1
    CHECK_EQ(track.advance(tok::kLower, 5), seq[3]); // a shorter 上联, then <down>
    CHECK_EQ(track.advance(ch(9), 6), ch(40));
    CHECK_EQ(track.advance(ch(9), 7), -1);
    // Without <up> nothing has a partner.
    const std::vector<int> plain = {tok::kBos, tok::kKeywords, ch(1), tok::kLower, ch(2), ch(3)};
    for (int p : partnersOf(plain.data(), plain.size())) CHECK_EQ(p, -1);
}

COUPLET_TEST(decodersAgreeWithTheForwardPassOnAModelWithPartners)
{
    Lm lm = tinyLm(true);
    Lm withoutP = tinyLm(true, 0.0f); // the same weights, P zero
    TorchDecoder torchDecoder(lm, torch::kCPU);
    const double torchDiff = differenceFromForward(torchDecoder, lm);
    const WeightMap weights = nativeWeightsOf(*lm);
    NativeDecoder fp32(lm->config(), weights, NativePrecision::Fp32);
    const double fp32Diff = differenceFromForward(fp32, lm);
    NativeDecoder portable(lm->config(), weights, NativePrecision::Fp32, CpuKernels::portable());
    const double portableDiff = differenceFromForward(portable, lm);
    // What P does to the logits: the yardstick for the reduced precisions.
    TorchDecoder zeroP(withoutP, torch::kCPU);
    const double partnerEffect = differenceFromForward(zeroP, lm);
    NativeDecoder bf16(lm->config(), weights, NativePrecision::Bf16);
    NativeDecoder int8(lm->config(), weights, NativePrecision::Int8);
    const double bf16Diff = differenceFromForward(bf16, lm), int8Diff = differenceFromForward(int8, lm);
    std::cout << "largest logit difference from forward(): libtorch " << torchDiff << ", native fp32 " << fp32Diff
              << " (portable " << portableDiff << "), bf16 " << bf16Diff << ", int8 " << int8Diff
              << "; P's own effect " << partnerEffect << '\n';
    CHECK(torchDiff < 1e-4);
    CHECK(fp32Diff < 1e-4);
    CHECK(portableDiff < 1e-4);
    CHECK(partnerEffect > 0.1);
    CHECK(bf16Diff < 0.1 * partnerEffect);
    CHECK(int8Diff < 0.2 * partnerEffect);
}

COUPLET_TEST(partnersChangeOnlyTheLowerLinesInputs)
{
    Lm lm = tinyLm(true), zero = tinyLm(true, 0.0f);
    const auto seq = coupletSeq(3, 5, true);
    const auto a = forwardLogits(lm, seq), b = forwardLogits(zero, seq);
    const std::size_t down = 8;
    for (std::size_t p = 0; p < seq.size(); ++p) {
        const double d = maxDiff(a[p].data(), b[p]);
        if (p < down) CHECK_EQ(d, 0.0);
        else CHECK(d > 1e-3); // a later position sees the earlier ones' partners too
    }
}

COUPLET_TEST(weightsGrownWithPartnersComputeTheOldFunctionOnEveryDecoder)
{
    const auto root = testing::freshTempDir("partners-grown");
    const auto data = testing::writeTinyDataFolder(root / "data", 200);
    const auto plain = testing::writeTinyModel(root / "plain", 5);
    TrainOptions o = testing::tinyContinuation(data, plain, root / "grown", 1);
    o.partners = true;
    o.learningRate = 0; // the weights as they were grown
    o.minLearningRate = 0;
    std::ostringstream log;
    train(o, log);
    CHECK(log.str().find("adding partner embeddings") != std::string::npos);
    CHECK(ModelConfig::load(root / "grown" / "config.json").partners);
    CHECK(!ModelConfig::load(plain / "config.json").partners);
    const auto p = safetensors::load(root / "grown" / "model.safetensors").at("partner.weight");
    CHECK_EQ(p.size(0), 32);
    CHECK(torch::equal(p, torch::zeros_like(p)));

    for (const char* precision : {"libtorch", "fp32", "bf16", "int8"}) {
        DeviceOptions options;
        options.device = "cpu";
        options.threads = 1;
        options.precision = precision;
        const auto before = CoupletModel::load(plain, options), after = CoupletModel::load(root / "grown", options);
        auto a = before->makeDecoder(), b = after->makeDecoder();
        // Both side by side: a prompt that ends at <up>, one that holds the 上联 and <down>.
        const auto seqs = std::vector<std::vector<int>>{coupletSeq(1, 5, true), coupletSeq(2, 7, true)};
        std::vector<float> la, lb;
        a->reserveRows(2);
        b->reserveRows(2);
        std::vector<PrefillItem> prompts = {{0, {seqs[0].begin(), seqs[0].begin() + 3}},
                                            {1, {seqs[1].begin(), seqs[1].begin() + 10}}};
        a->prefill(prompts, la);
        b->prefill(prompts, lb);
        double worst = maxDiff(la.data(), lb);
        std::vector<std::size_t> length = {3, 10};
        for (int step = 0; step < 8; ++step) {
            std::vector<DecodeItem> items;
            for (int r = 0; r < 2; ++r) {
                const auto& seq = seqs[static_cast<std::size_t>(r)];
                const std::size_t at = std::min(length[static_cast<std::size_t>(r)], seq.size() - 1);
                items.push_back({r, seq[at], static_cast<int>(at)});
                length[static_cast<std::size_t>(r)] = at + 1;
            }
            a->decode(items, la);
            b->decode(items, lb);
            worst = std::max(worst, maxDiff(la.data(), lb));
        }
        std::cout << precision << ": grown against old, largest logit difference " << worst << '\n';
        CHECK_EQ(worst, 0.0);
    }
}

COUPLET_TEST(weightsWithPartnersAreRefusedByAConfigWithoutThem)
{
    const auto root = testing::freshTempDir("partners-refused");
    const auto plain = testing::writeTinyModel(root / "plain", 2);
    Lm lm = tinyLm(true, 0.3f, ModelConfig::load(plain / "config.json").vocabSize);
    const auto dir = testing::writeTinyModel(root / "with", 1, &lm);
    CHECK(ModelConfig::load(dir / "config.json").partners);
    CHECK(CoupletModel::load(dir) != nullptr);
    auto config = ModelConfig::load(dir / "config.json");
    config.partners = false;
    config.save(dir / "config.json");
    try {
        CoupletModel::load(dir);
        CHECK(false);
    } catch (const ModelLoadError& e) {
        const std::string what = e.what();
        std::cout << what << '\n';
        CHECK(what.find("model.safetensors") != std::string::npos);
        CHECK(what.find("unexpected tensor 'partner.weight'") != std::string::npos);
    }
    // And the other way round: config.json asks for P, the weights lack it.
    config = ModelConfig::load(plain / "config.json");
    CHECK(!config.partners);
    config.partners = true;
    config.save(plain / "config.json");
    try {
        CoupletModel::load(plain);
        CHECK(false);
    } catch (const ModelLoadError& e) {
        CHECK(std::string(e.what()).find("tensor 'partner.weight' is missing") != std::string::npos);
    }
}

// --partner-lr-scale: P learns at its own rate and nothing else changes. From
// zero, AdamW's first step moves each entry of P by the learning rate (the
// sign of its gradient), so one step at 10x leaves P ten times larger, and
// every other weight as a run at 1x leaves it. The checkpoint records the scale.
COUPLET_TEST(aPartnerLearningRateScaleMovesOnlyP)
{
    const auto root = testing::freshTempDir("partners-lr");
    const auto data = testing::writeTinyDataFolder(root / "data", 200);
    const auto plain = testing::writeTinyModel(root / "plain", 5);
    const auto run = [&](const std::string& name, double scale) {
        TrainOptions o = testing::tinyContinuation(data, plain, root / name, 1);
        o.partners = true;
        o.partnerLrScale = scale;
        o.learningRate = 1e-3;
        std::ostringstream log;
        train(o, log);
        return safetensors::load(o.outDir / "model.safetensors");
    };
    const auto one = run("x1", 1), ten = run("x10", 10);
    const double p1 = one.at("partner.weight").abs().max().item<double>();
    const double p10 = ten.at("partner.weight").abs().max().item<double>();
    std::cout << "largest entry of P after one step: " << p1 << " at 1x, " << p10 << " at 10x\n";
    CHECK(std::abs(p1 - 1e-3) < 1e-5);
    CHECK(std::abs(p10 - 1e-2) < 1e-4);
    for (const auto& [name, t] : one)
        if (name != "partner.weight") CHECK(torch::equal(t, ten.at(name)));
    TrainOptions resumed;
    resumed.outDir = root / "x10";
    CHECK(loadResumedSchedule(resumed));
    CHECK_EQ(resumed.partnerLrScale, 10.0);
}
