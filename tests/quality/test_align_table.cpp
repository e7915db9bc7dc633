#include "tiny_model.h"

#include "align_table.h"
#include "align_table_builder.h"
#include "couplet_model.h"
#include "couplet_model_impl.h"
#include "decoder_nll.h"
#include "generate.h"
#include "utf8.h"
#include "vocab.h"

#include <check.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <vector>

using namespace couplet;

namespace {

// The tiny vocabulary's Han characters, each paired with a partner 17 places on.
char32_t partner(char32_t c)
{
    const auto chars = testing::tinyHanCharacters();
    return chars[(chars.find(c) + 17) % chars.size()];
}

// A table in which every character's partner stands under it five times.
AlignTable partnerTable()
{
    AlignTable table;
    for (char32_t c : testing::tinyHanCharacters())
        for (int k = 0; k < 5; ++k) table.addPair(std::u32string(1, c), std::u32string(1, partner(c)));
    AlignTable::BuildOptions o;
    o.alpha = 1;
    o.weight = 4;
    table.prune(o);
    return table;
}

const std::vector<std::string> kUppers = {"春风开万户", "红梅迎新岁", "山高月小", "金龙来福地",   "国泰民安",
                                          "东风送暖",   "花开富贵",   "千山秀",   "一门天赐福", "诗书传家"};

// Share of 下联 positions holding the 上联 character's partner, over the
// positions where the constraints allow the partner at all.
double partnerShare(const CoupletModel& model, float alignWeight)
{
    auto decoder = model.makeDecoder();
    int hits = 0, possible = 0;
    for (const auto& up : kUppers) {
        GenerationSpec spec;
        spec.mode = PromptMode::Upper;
        spec.upper = up;
        spec.sampling.greedy = true;
        spec.alignWeight = alignWeight;
        const auto down = utf8::decode(generateCouplets(model, *decoder, spec)[0].lower);
        const auto u = utf8::decode(up);
        for (std::size_t i = 0; i < u.size(); ++i) {
            if (u.find(partner(u[i])) != std::u32string::npos) continue; // banned: an 上联 character
            ++possible;
            hits += down[i] == partner(u[i]);
        }
    }
    return possible == 0 ? 0.0 : double(hits) / possible;
}

} // namespace

COUPLET_TEST(tableCountsAlignedPairsAndSurvivesSaveAndLoad)
{
    AlignTable table;
    for (int k = 0; k < 6; ++k) table.addPair(U"春风", U"秋月");
    for (int k = 0; k < 2; ++k) table.addPair(U"春风", U"冬雪");
    table.addPair(U"春，", U"夏，"); // seen once: below the minimum count
    table.prune({});
    const auto path = testing::freshTempDir("align") / "align.tsv";
    table.save(path);
    auto loaded = AlignTable::load(path);
    const Vocab vocab(std::vector<char32_t>{U'春', U'风', U'秋', U'月', U'冬', U'雪', U'夏', U'，'});
    loaded.bind(vocab);
    const int chun = vocab.id(U'春'), qiu = vocab.id(U'秋'), dong = vocab.id(U'冬'), xia = vocab.id(U'夏');
    CHECK(loaded.score(chun, qiu) > 0);
    CHECK(loaded.score(chun, dong) > 0);
    CHECK_EQ(loaded.score(chun, xia), 0.0f);
    CHECK_EQ(loaded.score(vocab.id(U'风'), qiu), 0.0f);
    CHECK_EQ(loaded.positions(), std::int64_t(17));
    CHECK(loaded.coupletScore(vocab.encode("春风"), vocab.encode("秋月")) > 0);
}

COUPLET_TEST(aPairCountedThreeTimesIsThreePairs)
{
    AlignTable once, thrice;
    for (int k = 0; k < 3; ++k) once.addPair(U"春风", U"秋月");
    once.addPair(U"红梅", U"绿柳");
    thrice.addPair(U"春风", U"秋月", 3);
    thrice.addPair(U"红梅", U"绿柳");
    thrice.addPair(U"白雪", U"青山", 0); // counted no times: not counted
    once.prune({});
    thrice.prune({});
    const auto dir = testing::freshTempDir("align-times");
    once.save(dir / "once.tsv");
    thrice.save(dir / "thrice.tsv");
    auto read = [](const std::filesystem::path& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    CHECK_EQ(read(dir / "thrice.tsv"), read(dir / "once.tsv"));
    CHECK(read(dir / "once.tsv").find("春\t3\t0\t0\t秋:3") != std::string::npos);
}

COUPLET_TEST(tableByMixCountsEachCorpusByItsShareOfTraining)
{
    // A data folder whose small "modern" corpus (drawn 55% of the time) pairs
    // 春 with 秋, and whose ten times larger "verse-song" corpus (20%) pairs it
    // with 冬. By size the verse wins; by the training mix the modern pair does.
    const auto data = testing::freshTempDir("align-mix");
    std::filesystem::create_directories(data / "couplets");
    {
        std::ofstream modern(data / "couplets" / "modern.tsv"), song(data / "couplets" / "verse-song.tsv");
        for (int k = 0; k < 4; ++k) modern << "春风\t秋月\n";
        for (int k = 0; k < 40; ++k) song << "春山\t冬水\n";
    }
    const auto corpora = TrainingData::load(data);
    const Vocab vocab(std::vector<char32_t>{U'春', U'风', U'秋', U'月', U'山', U'冬', U'水'});
    AlignTable::BuildOptions o;
    o.logCount = true;
    auto bySize = buildAlignTable(corpora, o);
    o.byMix = true;
    auto byMix = buildAlignTable(corpora, o);
    // Reloaded, so that the header's mix=1 is read back too.
    byMix.save(data / "mix.tsv");
    byMix = AlignTable::load(data / "mix.tsv");
    bySize.bind(vocab);
    byMix.bind(vocab);
    const int chun = vocab.id(U'春'), qiu = vocab.id(U'秋'), dong = vocab.id(U'冬');
    CHECK(bySize.score(chun, dong) > bySize.score(chun, qiu));
    CHECK(byMix.score(chun, qiu) > byMix.score(chun, dong));
    // Per pair, modern weighs 0.55 / 4 against 0.2 / 40: 27.5 times, rounded to 28.
    CHECK_EQ(byMix.positions(), std::int64_t(2 * (4 * 28 + 40)));
    CHECK_EQ(bySize.positions(), std::int64_t(2 * (4 + 40)));
    std::ifstream in(data / "mix.tsv");
    std::string header;
    std::getline(in, header);
    CHECK(header.find(" mix=1") != std::string::npos);
}

COUPLET_TEST(badTableFileNamesTheLine)
{
    const auto path = testing::freshTempDir("align-bad") / "align.tsv";
    std::ofstream(path) << "@ positions=10 lines=4 alpha=200 weight=1\n春\t3\t1\t0\t秋-2\n";
    CHECK_THROWS(AlignTable::load(path), "line 2");
    std::ofstream(path) << "春\t3\t1\t0\t秋:2\n";
    CHECK_THROWS(AlignTable::load(path), "line 1");
}

COUPLET_TEST(fusionPullsTheLowerLineTowardAlignedPairs)
{
    const auto dir = testing::writeTinyModel(testing::freshTempDir("fusion") / "m", 5);
    const auto plain = CoupletModel::load(dir, DeviceOptions{"cpu", false, 1});
    partnerTable().save(dir / "align.tsv");
    const auto fused = CoupletModel::load(dir, DeviceOptions{"cpu", false, 1});
    const double without = partnerShare(*plain, -1), off = partnerShare(*fused, 0), with = partnerShare(*fused, -1);
    CHECK(without < 0.2);
    CHECK_EQ(off, without);   // weight 0 turns fusion off
    CHECK(with > 0.9);        // the table's default weight (4) pulls the partners in
}

namespace {

// 下联s for kUppers whose every character stands `shift` places on from its 上联
// character in the tiny vocabulary (17: the table's partners), as reference examples.
std::vector<TrainingExample> shiftedReferences(const Vocab& vocab, std::size_t shift)
{
    const auto chars = testing::tinyHanCharacters();
    std::vector<TrainingExample> out;
    for (const auto& up : kUppers) {
        std::u32string down;
        for (char32_t c : utf8::decode(up)) down.push_back(chars[(chars.find(c) + shift) % chars.size()]);
        out.push_back(answerExample(vocab.encode(up), vocab.encode(utf8::encode(down))));
    }
    return out;
}

} // namespace

COUPLET_TEST(fusedPerplexityScoresTheReferenceAsDecodingSeesIt)
{
    const auto dir = testing::writeTinyModel(testing::freshTempDir("fusion-nll") / "m", 5);
    partnerTable().save(dir / "align.tsv");
    const auto model = CoupletModel::load(dir, DeviceOptions{"cpu", false, 1});
    const auto& vocab = model->vocab();
    const auto& table = *model->align();
    std::vector<std::vector<int>> uppers;
    for (const auto& up : kUppers) uppers.push_back(vocab.encode(up));

    // The bias adds weight times the 上联 character's row at its own position,
    // and nothing past the 上联's length.
    const auto bias = alignFusionBias(table, 2.0f, uppers);
    std::vector<float> logits(static_cast<std::size_t>(vocab.size()), 0.0f);
    bias(1, 3, logits);
    const int partnerOf = vocab.id(partner(utf8::decode(kUppers[1])[3]));
    CHECK(table.score(uppers[1][3], partnerOf) > 0);
    CHECK_EQ(logits[static_cast<std::size_t>(partnerOf)], 2.0f * table.score(uppers[1][3], partnerOf));
    double added = 0;
    for (const auto& e : table.row(uppers[1][3])) added += 2.0 * e.score;
    double sum = 0;
    for (float v : logits) sum += v;
    CHECK(std::abs(sum - added) < 1e-4);
    std::vector<float> past(static_cast<std::size_t>(vocab.size()), 0.0f);
    bias(1, uppers[1].size(), past);
    CHECK(std::all_of(past.begin(), past.end(), [](float v) { return v == 0.0f; }));

    auto decoder = model->makeDecoder();
    const auto partners = shiftedReferences(vocab, 17), others = shiftedReferences(vocab, 5);
    const double plain = decoderTargetNll(*decoder, partners);
    CHECK_EQ(decoderTargetNll(*decoder, partners, 64, alignFusionBias(table, 0.0f, uppers)), plain);
    // The table knows the partners: a random model's near-uniform guess gives way
    // to them, and other 下联s become less likely than the model alone makes them.
    const double fused = decoderTargetNll(*decoder, partners, 64, alignFusionBias(table, 4.0f, uppers));
    CHECK(fused < plain - 2.0);
    CHECK(decoderTargetNll(*decoder, others, 64, alignFusionBias(table, 4.0f, uppers))
          > decoderTargetNll(*decoder, others));
    // Rows of 3 give the same figures as one group of 64.
    CHECK(std::abs(decoderTargetNll(*decoder, partners, 3, alignFusionBias(table, 4.0f, uppers)) - fused) < 1e-4);
}
