#include "tiny_model.h"

#include "couplet_model.h"
#include "couplet_model_impl.h"
#include "generate.h"
#include "trainer.h"
#include "training_data.h"
#include "utf8.h"
#include "vocab.h"

#include <check.h>

using namespace couplet;

// Ten pairs written only with characters of the tiny vocabulary, none
// repeating an 上联 character in the 下联 (so the constraints allow them).
static const std::vector<std::pair<std::string, std::string>> kPairs = {
    {"春风开万户", "瑞雪满千家"}, {"红梅迎新岁", "绿竹报平安"}, {"山高月小", "水落石出"},
    {"金龙来福地", "玉凤上高山"}, {"国泰民安", "年丰人寿"},   {"东风送暖", "瑞雪兆丰"},
    {"花开富贵", "竹报平安"},     {"千山秀", "万水长"},       {"一门天赐福", "四海地生财"},
    {"诗书传家", "琴棋养心"},
};

namespace {

// Fits a fresh tiny model to the ten pairs (products in bf16 or fp32) and
// checks that greedy decoding gives back every 下联.
double overfitsAndReproduces(bool bf16)
{
    const auto dir = testing::freshTempDir(bf16 ? "overfit-bf16" : "overfit") / "m";
    testing::writeTinyModel(dir, 11);
    const auto vocab = Vocab::load(dir / "vocab.txt");
    torch::manual_seed(11);
    auto config = testing::tinyConfig(vocab.size());
    config.dim = 64;
    config.mlpHidden = 128;
    Lm lm(config);
    std::vector<TrainingExample> examples;
    for (const auto& [up, down] : kPairs) {
        for (const auto& s : {up, down})
            CHECK_EQ(utf8::encode(vocab.unknownCharacters(s)), std::string());
        examples.push_back(TrainingData::lowerLineExample({utf8::decode(up), utf8::decode(down), 0}, vocab));
    }
    const double loss = fitExamples(*lm, examples, 400, 3e-3, bf16);
    std::cout << (bf16 ? "bf16" : "fp32") << " products: last loss " << loss << '\n';
    CHECK(loss < 0.05);
    testing::writeTinyModel(dir, 11, &lm);

    const auto model = CoupletModel::load(dir, DeviceOptions{"cpu", false, 1});
    auto decoder = model->makeDecoder();
    for (const auto& [up, down] : kPairs) {
        GenerationSpec spec;
        spec.mode = PromptMode::Upper;
        spec.upper = up;
        spec.sampling.greedy = true;
        spec.sampling.repetitionPenalty = 1.0f;
        const auto out = generateCouplets(*model, *decoder, spec);
        CHECK_EQ(out[0].lower, down);
    }
    return loss;
}

} // namespace

COUPLET_TEST(tinyModelOverfitsTenPairsAndReproducesThem)
{
    overfitsAndReproduces(false);
}

// The trainer's default on CPUs with avx512_bf16: the forward products in
// bf16 under autocast, the weights and the loss in fp32. It must learn as
// well (where the CPU has no bf16 products libtorch emulates them, slowly).
COUPLET_TEST(tinyModelOverfitsWithBf16Products)
{
    const double bf16 = overfitsAndReproduces(true);
    // Same seed, same data: only the products' precision differs, so a loss
    // equal to the last bit would mean autocast never took effect.
    CHECK(bf16 != overfitsAndReproduces(false));
}

// --grow-layers: a tiny 2-layer model deepened to 3 and to 5 layers computes
// the same logits (each new layer starts as the identity, its output
// projections zeroed), and a model no deeper than the file is refused.
COUPLET_TEST(grownModelStartsAsTheSameFunction)
{
    const auto dir = testing::freshTempDir("grow") / "m";
    testing::writeTinyModel(dir, 5);
    const auto vocab = Vocab::load(dir / "vocab.txt");
    const auto config = testing::tinyConfig(vocab.size());
    CHECK_EQ(config.layers, 2);
    Lm shallow(config);
    loadWeightsInto(*shallow, dir / "model.safetensors");
    shallow->eval();
    const auto tokens = torch::randint(0, vocab.size(), {3, 12}, torch::kLong);
    torch::NoGradGuard guard;
    const auto want = shallow->forward(tokens);
    for (const int layers : {3, 5}) {
        auto deeper = config;
        deeper.layers = layers;
        Lm grown(deeper);
        growWeightsInto(*grown, dir / "model.safetensors", layers);
        grown->eval();
        const double gap = (grown->forward(tokens) - want).abs().max().item<double>();
        std::cout << layers << " layers: largest logit gap " << gap << '\n';
        CHECK(gap < 1e-5);
        // Not a copy of the shallow weights alone: some block holds zeroed projections.
        int zeroed = 0;
        for (const auto& p : grown->named_parameters())
            if (p.key().find("attn.proj.weight") != std::string::npos && p.value().abs().max().item<double>() == 0) ++zeroed;
        CHECK_EQ(zeroed, layers - config.layers);
    }
    Lm same(config);
    CHECK_THROWS(growWeightsInto(*same, dir / "model.safetensors", config.layers), "cannot grow");
}
