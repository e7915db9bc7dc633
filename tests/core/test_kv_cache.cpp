#include "tiny_model.h"

#include "torch_decoder.h"

#include <check.h>

using namespace couplet;

namespace {

Lm tinyLm()
{
    torch::manual_seed(7);
    auto config = testing::tinyConfig(80);
    Lm lm(config);
    lm->eval();
    return lm;
}

std::vector<int> randomTokens(int n, int seed)
{
    std::vector<int> t;
    for (int i = 0; i < n; ++i) t.push_back(10 + (seed * 31 + i * 17) % 70);
    return t;
}

// Logits of forward() over the whole sequence at position `pos`.
std::vector<float> fullLogits(Lm& lm, const std::vector<int>& tokens, std::size_t pos)
{
    torch::NoGradGuard guard;
    auto t = torch::tensor(std::vector<int64_t>(tokens.begin(), tokens.end())).unsqueeze(0);
    auto logits = lm->forward(t)[0][static_cast<int64_t>(pos)].contiguous();
    return {logits.data_ptr<float>(), logits.data_ptr<float>() + logits.numel()};
}

double maxDiff(const float* a, const std::vector<float>& b)
{
    double m = 0;
    for (std::size_t i = 0; i < b.size(); ++i) m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
    return m;
}

} // namespace

// Prefill prompts of different lengths together, then decode the rows in
// lockstep: every step's logits must match a full forward pass.
COUPLET_TEST(incrementalDecodingMatchesFullForward)
{
    Lm lm = tinyLm();
    TorchDecoder decoder(lm, torch::kCPU);
    decoder.reserveRows(3);
    const int vocab = decoder.vocabSize();
    std::vector<std::vector<int>> seqs = {randomTokens(14, 1), randomTokens(20, 2), randomTokens(15, 3)};
    const std::vector<int> promptLen = {3, 9, 1};
    std::vector<PrefillItem> prefill;
    for (int r = 0; r < 3; ++r)
        prefill.push_back({r, std::vector<int>(seqs[r].begin(), seqs[r].begin() + promptLen[r])});
    std::vector<float> logits;
    decoder.prefill(prefill, logits);
    for (int r = 0; r < 3; ++r)
        CHECK(maxDiff(&logits[r * vocab], fullLogits(lm, seqs[r], promptLen[r] - 1)) < 1e-4);

    for (int step = 0; step < 10; ++step) {
        std::vector<DecodeItem> items;
        for (int r = 0; r < 3; ++r) {
            const int pos = promptLen[r] + step;
            items.push_back({r, seqs[r][pos], pos});
        }
        decoder.decode(items, logits);
        for (int r = 0; r < 3; ++r)
            CHECK(maxDiff(&logits[r * vocab], fullLogits(lm, seqs[r], promptLen[r] + step)) < 1e-4);
    }
}

// Moving a row (what the scheduler does to keep rows compact) keeps its state.
COUPLET_TEST(copiedRowContinuesIdentically)
{
    Lm lm = tinyLm();
    TorchDecoder decoder(lm, torch::kCPU);
    decoder.reserveRows(2);
    const int vocab = decoder.vocabSize();
    const auto seq = randomTokens(10, 5);
    std::vector<float> logits;
    decoder.prefill(std::vector<PrefillItem>{{1, {seq.begin(), seq.begin() + 6}}}, logits);
    decoder.copyRow(1, 0, 6);
    decoder.decode(std::vector<DecodeItem>{{0, seq[6], 6}}, logits);
    CHECK(maxDiff(logits.data(), fullLogits(lm, seq, 6)) < 1e-4);
    CHECK_EQ(static_cast<int>(logits.size()), vocab);
}

COUPLET_TEST(growingTheCacheKeepsRows)
{
    Lm lm = tinyLm();
    TorchDecoder decoder(lm, torch::kCPU);
    decoder.reserveRows(1);
    const auto seq = randomTokens(8, 9);
    std::vector<float> logits;
    decoder.prefill(std::vector<PrefillItem>{{0, {seq.begin(), seq.begin() + 5}}}, logits);
    decoder.reserveRows(4);
    CHECK_EQ(decoder.rowCapacity(), 4);
    decoder.decode(std::vector<DecodeItem>{{0, seq[5], 5}}, logits);
    CHECK(maxDiff(logits.data(), fullLogits(lm, seq, 5)) < 1e-4);
}

COUPLET_TEST(decodeRejectsRowsOutOfOrder)
{
    Lm lm = tinyLm();
    TorchDecoder decoder(lm, torch::kCPU);
    decoder.reserveRows(2);
    std::vector<float> logits;
    CHECK_THROWS(decoder.decode(std::vector<DecodeItem>{{1, 10, 0}}, logits), "0..n-1");
    CHECK_THROWS(decoder.decode(std::vector<DecodeItem>{{0, 10, 500}}, logits), "maximum length");
}
