// Preference training (DPO) end to end: a judged request reads as the model is
// prompted at that door, the file is checked row by row, and training moves the
// model's likelihood toward the printable couplet of each pair.

#include "tiny_model.h"

#include "couplet_model.h"
#include "preference_data.h"
#include "token_policy.h"
#include "trainer.h"
#include "transformer.h"
#include "utf8.h"

#include <check.h>

#include <fstream>
#include <sstream>

using namespace couplet;

namespace {

// The prompt part of an example: its tokens before the first target.
std::vector<int> promptOf(const TrainingExample& ex)
{
    std::size_t first = 0;
    while (first < ex.target.size() && !ex.target[first]) ++first;
    return {ex.tokens.begin(), ex.tokens.begin() + static_cast<std::ptrdiff_t>(first + 1)};
}

// The targets of an example as text, special tokens by name.
std::string targetsOf(const TrainingExample& ex, const Vocab& vocab)
{
    std::string out;
    for (std::size_t i = 0; i + 1 < ex.tokens.size(); ++i)
        if (ex.target[i]) out += vocab.piece(ex.tokens[i + 1]);
    return out;
}

std::shared_ptr<const CoupletModel> shipped()
{
    static auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 1});
    return model;
}

// The tiny model folder's weights as a model to measure.
double preferenceGap(const std::filesystem::path& folder, const std::vector<PreferencePair>& pairs)
{
    const auto config = ModelConfig::load(folder / "config.json");
    Lm lm(config);
    loadWeightsInto(*lm, folder / "model.safetensors");
    lm->eval();
    std::vector<TrainingExample> chosen, rejected;
    for (const auto& p : pairs) {
        chosen.push_back(p.chosen);
        rejected.push_back(p.rejected);
    }
    return meanTargetNll(*lm, rejected) - meanTargetNll(*lm, chosen);
}

} // namespace

// The prompt of a preference row is the prompt the shipped model is given for
// the same request (keywords, 藏头, a given 上联; 9 characters carry the mark in
// their <lenN>), and the targets are the lines it wrote.
COUPLET_TEST(aRequestReadsAsTheModelIsPromptedForIt)
{
    const auto model = shipped();
    const auto& vocab = model->vocab();
    GenerationSpec spec;
    spec.year = 0;
    spec.keywords = "龙年 生意";
    spec.length = 7;
    auto ex = requestExample("keywords", "龙年 生意", 7, "龙年生意兴隆日", "虎岁财源茂盛时", vocab);
    CHECK(promptOf(ex) == model->makePolicy(spec)->promptTokens());
    CHECK_EQ(targetsOf(ex, vocab), std::string("龙年生意兴隆日<down>虎岁财源茂盛时"));

    spec.keywords = "五福";
    spec.length = 9;
    ex = requestExample("keywords", "五福", 9, "五福临门，家家添喜气", "三阳开泰，户户纳祥光", vocab);
    CHECK(promptOf(ex) == model->makePolicy(spec)->promptTokens());

    spec.mode = PromptMode::Acrostic;
    spec.keywords.clear();
    spec.acrostic = "德顺";
    spec.length = 5;
    ex = requestExample("acrostic", "德顺", 5, "德泽千家福", "顺风万事兴", vocab);
    CHECK(promptOf(ex) == model->makePolicy(spec)->promptTokens());

    spec = GenerationSpec{};
    spec.mode = PromptMode::Upper;
    spec.upper = "春风送暖";
    spec.year = 0;
    ex = requestExample("upper", "春风送暖", 0, "春风送暖", "瑞雪迎春", vocab);
    CHECK(promptOf(ex) == model->makePolicy(spec)->promptTokens());
    CHECK_EQ(targetsOf(ex, vocab), std::string("瑞雪迎春"));

    CHECK_THROWS(requestExample("upper", "春风送暖", 0, "秋风送爽", "瑞雪迎春", vocab), "is not the given one");
    CHECK_THROWS(requestExample("poem", "春", 5, "春风送暖来", "瑞雪迎春到", vocab), "mode \"poem\"");
}

// A malformed row is refused by file and line; a row with a character the
// vocabulary lacks is skipped and counted; about one request in ten is held
// out, always the same ones.
COUPLET_TEST(aPreferenceFileIsCheckedRowByRow)
{
    const auto root = testing::freshTempDir("preferences-file");
    const auto vocab = shipped()->vocab();
    const auto file = root / "pref.tsv";
    {
        std::ofstream out(file);
        out << "# mode\ttext\tlength\t...\n";
        const std::u32string pool = U"春福年新喜风花月山水天地人家门财金玉龙凤吉祥如意安康寿平万事兴旺和顺五四海";
        for (std::size_t i = 0; i < 36; ++i)
            out << "keywords\t" << utf8::encode(pool.substr(i, 1)) << utf8::encode(pool.substr((i + 5) % pool.size(), 1))
                << "\t5\t五福临门喜\t三阳开泰春\t五福千秋颂\t百年万代传\n";
        out << "keywords\t家和 万事\t5\t家和万事兴\t人寿百年康\t家和月石落\t小竹秋水山\n"; // two keywords: kept
        out << "keywords\t家和\t5\t家和万事兴\t人寿百年康\t家和\U00029FCE福\t人寿百年康\n"; // an unknown character
    }
    const auto set = loadPreferences(file, vocab);
    CHECK_EQ(set.skipped, std::size_t(1));
    CHECK_EQ(set.pairs.size(), std::size_t(37));
    std::size_t held = 0;
    for (const auto& p : set.pairs) held += p.heldOut ? 1 : 0;
    CHECK(held > 0 && held < 10);
    const auto again = loadPreferences(file, vocab);
    for (std::size_t i = 0; i < set.pairs.size(); ++i) CHECK_EQ(again.pairs[i].heldOut, set.pairs[i].heldOut);

    std::ofstream(root / "short.tsv") << "keywords\t五福\t5\t五福临门喜\t三阳开泰春\n";
    CHECK_THROWS(loadPreferences(root / "short.tsv", vocab), "short.tsv:1: 5 fields; a preference row has 7");
    std::ofstream(root / "length.tsv") << "# c\nkeywords\t五福\tseven\ta\tb\tc\td\n";
    CHECK_THROWS(loadPreferences(root / "length.tsv", vocab), "length.tsv:2: length \"seven\"");
    std::ofstream(root / "mode.tsv") << "poem\t五福\t5\t五福临门喜\t三阳开泰春\t五福千秋颂\t百年万代传\n";
    CHECK_THROWS(loadPreferences(root / "mode.tsv", vocab), "mode.tsv:1: mode \"poem\"");
    std::ofstream(root / "latin1.tsv") << "keywords\t\xe5\xae\xb6\xff\t5\ta\tb\tc\td\n";
    CHECK_THROWS(loadPreferences(root / "latin1.tsv", vocab), "latin1.tsv:1: not UTF-8");
    CHECK_THROWS(loadPreferences(root / "none.tsv", vocab), "none.tsv: cannot read the preferences");
}

// A few steps of preference training on a tiny model widen the gap between
// the rejected and the chosen couplets' likelihood (the same run without the
// preferences does not widen it as much); a resumed run reads the starting
// weights' log-probabilities back, and one without them is refused by name.
COUPLET_TEST(preferenceTrainingMovesTheModelTowardThePrintableCouplet)
{
    const auto root = testing::freshTempDir("preferences-train");
    const auto data = testing::writeTinyDataFolder(root / "data", 200);
    const auto fresh = testing::writeTinyModel(root / "fresh", 3);
    const auto vocab = Vocab::load(fresh / "vocab.txt");
    const auto file = root / "pref.tsv";
    {
        std::ofstream out(file);
        const char* rows[] = {
            "keywords\t春\t5\t春风送暖来\t瑞雪兆丰年\t春山水月花\t秋石落小竹",
            "keywords\t福\t5\t福满门户喜\t春临大地安\t福月石山水\t竹小落秋书",
            "keywords\t龙\t5\t龙年步步高\t凤岁家家乐\t龙石月水山\t竹书琴落小",
            "acrostic\t新喜\t5\t新春花满户\t喜事满堂红\t新石月山水\t喜竹书落琴",
            "keywords\t家和\t5\t家和万事兴\t人寿百年康\t家和月石落\t小竹秋水山",
            "keywords\t吉祥\t5\t吉祥如意到\t富贵满堂来\t吉祥石落小\t月秋竹书山",
        };
        for (const char* r : rows) out << r << '\n';
    }
    const auto set = loadPreferences(file, vocab);
    CHECK_EQ(set.pairs.size(), std::size_t(6));
    const double before = preferenceGap(fresh, set.pairs);

    auto o = testing::tinyContinuation(data, fresh, root / "plain", 12);
    o.learningRate = 5e-3;
    o.seed = 1;
    std::ostringstream plainLog;
    train(o, plainLog);
    const double plain = preferenceGap(root / "plain", set.pairs);

    o.outDir = root / "dpo";
    o.preferences = file;
    o.preferenceBeta = 0.5;
    o.preferenceWeight = 4;
    o.preferenceBatch = 6;
    std::ostringstream log;
    train(o, log);
    const double after = preferenceGap(root / "dpo", set.pairs);
    CHECK(log.str().find("preferences: ") != std::string::npos);
    CHECK(log.str().find("DPO loss ") != std::string::npos);
    CHECK(after > before + 0.5);
    CHECK(after > plain + 0.5);

    // Resumed against the same reference: 12 -> 14 steps.
    auto resumed = o;
    resumed.initFrom.clear();
    resumed.resume = true;
    resumed.steps = 14;
    std::ostringstream resumedLog;
    train(resumed, resumedLog);
    CHECK(resumedLog.str().find("resuming at step 12") != std::string::npos);
    std::filesystem::remove(o.outDir / "checkpoint" / "preference-reference.pt");
    resumed.steps = 16;
    CHECK_THROWS(train(resumed, resumedLog), "preference-reference.pt is missing");
}
