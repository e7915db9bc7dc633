#include "tiny_model.h"

#include "align_table.h"
#include "couplet_model.h"
#include "couplet_scorer.h"
#include "couplet_model_impl.h"
#include "decoder_nll.h"
#include "generate.h"
#include "tone_table.h"
#include "utf8.h"
#include "vocab.h"

#include <check.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace couplet;

namespace {

struct Fixture {
    std::filesystem::path dir = testing::writeTinyModel(testing::freshTempDir("rerank") / "m", 9);
    Vocab vocab = Vocab::load(dir / "vocab.txt");
    ToneTable tones = ToneTable::load(dir / "tones.tsv");
    AlignTable align;
    Fixture()
    {
        for (int k = 0; k < 4; ++k) align.addPair(U"花月春山喜", U"水风雪地来");
        align.prune({});
        align.bind(vocab);
    }
};

Couplet candidate(const char* upper, const char* lower, double logProb)
{
    Couplet c;
    c.upper = upper;
    c.lower = lower;
    c.hengpi = "五福临门";
    c.parts.logProb = logProb;
    return c;
}

} // namespace

COUPLET_TEST(tonePatternRulesAreCounted)
{
    const Fixture f;
    const CoupletScorer scorer(f.vocab, f.tones, nullptr);
    // 月 Z / 风 P at position 2, 山 P / 地 Z at 4, 上联 ends 喜 Z, 下联 ends 来 P.
    CHECK_NEAR(scorer.toneScore(U"花月春山喜", U"水风雪地来"), 1.0, 1e-12);
    // Swapped lines keep the four rules at positions 2 and 4, break both endings.
    CHECK_NEAR(scorer.toneScore(U"水风雪地来", U"花月春山喜"), 4.0 / 6.0, 1e-12);
}

COUPLET_TEST(repeatsOtherThanMirroredDieziArePenalised)
{
    CHECK_EQ(CoupletScorer::repeatedCharacters(U"年年春风", U"岁岁花月"), 0);
    CHECK_EQ(CoupletScorer::repeatedCharacters(U"年年春风", U"岁月花开"), 1);
    CHECK_EQ(CoupletScorer::repeatedCharacters(U"春风春雨", U"秋月秋霜"), 1);
    CHECK_EQ(CoupletScorer::repeatedCharacters(U"春，风，", U"秋，月，"), 0); // punctuation may repeat
}

COUPLET_TEST(scorePartsAddUpToTheTotalAndRankTheCandidates)
{
    const Fixture f;
    ScoreWeights weights;
    weights.backward = 0.5;
    const CoupletScorer scorer(f.vocab, f.tones, &f.align, weights);
    std::vector<Couplet> cands = {candidate("春风开万户", "瑞雪满千家", -2.0), candidate("花月春山喜", "水风雪地来", -2.5),
                                  candidate("年年春风喜", "岁岁花月来", -1.8), candidate("春风开万户", "瑞雪满千家", -2.0)};
    for (std::size_t i = 0; i < cands.size(); ++i) cands[i].backwardLogProb = -1.0 - 0.25 * double(i);
    scorer.rerank(cands, {U"春风"});
    for (std::size_t i = 0; i < cands.size(); ++i) {
        const auto& p = cands[i].parts;
        CHECK_NEAR(cands[i].score, p.logProb + p.duizhang + p.tone + p.keywords + p.repetition + p.cliche + p.backward
                                       + p.looseWords + p.tornKeywords + p.wordDuizhang + p.theme + p.melancholy,
                   1e-12);
        CHECK_NEAR(p.backward, 0.5 * cands[i].backwardLogProb, 1e-12);
        CHECK_NEAR(cands[i].score, p.total(), 1e-12);
        if (i > 0) CHECK(cands[i - 1].score >= cands[i].score);
        CHECK(p.repetition <= 0);
        CHECK(p.cliche <= 0);
    }
    for (const auto& c : cands) {
        const bool hasKeyword = c.upper.find("春风") != std::string::npos;
        CHECK_NEAR(c.parts.keywords, hasKeyword ? ScoreWeights{}.keywords : 0.0, 1e-12);
        if (c.upper == "花月春山喜") CHECK(c.parts.duizhang > 0); // the table's own pairs
        if (c.upper == "春风开万户") CHECK(c.parts.cliche < 0);   // shared with its repeat
        if (c.upper == "花月春山喜") CHECK(c.parts.melancholy < 0); // the moon of verse, in a spring couplet
        CHECK_EQ(c.parts.looseWords, 0.0); // no word table given: no word terms
        CHECK_EQ(c.parts.theme, 0.0);
        // No repeat is a penalty of 0, not -0 (which --json prints as -0.0).
        if (c.upper == "春风开万户") CHECK(c.parts.repetition == 0 && !std::signbit(c.parts.repetition));
    }
    CoupletScorer::keepBest(cands, 3);
    std::set<std::string> distinct;
    for (const auto& c : cands) distinct.insert(c.upper + c.lower);
    CHECK_EQ(distinct.size(), std::size_t(3));
}

COUPLET_TEST(aLineEndingAgainstTheRuleLosesToOneThatKeepsIt)
{
    const Fixture f;
    const CoupletScorer scorer(f.vocab, f.tones, nullptr);
    // 喜 is 仄 and 来 平: the right ends. Swapped, both lines end wrong.
    CHECK_EQ(scorer.endsAgainstTheRule(U"花月春山喜", U"水风雪地来", false), 0);
    CHECK_EQ(scorer.endsAgainstTheRule(U"水风雪地来", U"花月春山喜", false), 2);
    // A given 上联 ending on 平 is answered by a 下联 on 仄: only the 上联 counts.
    CHECK_EQ(scorer.endsAgainstTheRule(U"水风雪地来", U"花月春山喜", true), 1);
    // The same model score: the couplet that keeps the rule ranks first, by the tone part.
    std::vector<Couplet> cands = {candidate("水风雪地来", "花月春山喜", -2.0), candidate("花月春山喜", "水风雪地来", -2.0)};
    scorer.rerank(cands, {});
    CHECK_EQ(cands.front().upper, std::string("花月春山喜"));
    CHECK(cands.front().parts.tone - cands.back().parts.tone >= 2 * ScoreWeights{}.lineEnds);
}

COUPLET_TEST(theLikelihoodWeightScalesTheModelsTermAgainstTheRules)
{
    const Fixture f;
    // Without keywords the rule terms prefer 春风开万户 / 瑞雪满千家 by about one point;
    // 花月春山喜 / 水风雪地来 is likelier by 0.5 nats a character. The rules win at
    // weight 1, the model at 100.
    const auto ranked = [&](double likelihood) {
        ScoreWeights weights;
        weights.likelihood = likelihood;
        const CoupletScorer scorer(f.vocab, f.tones, &f.align, weights);
        std::vector<Couplet> cands = {candidate("春风开万户", "瑞雪满千家", -2.0), candidate("花月春山喜", "水风雪地来", -1.5)};
        scorer.rerank(cands, {});
        for (const auto& c : cands) CHECK_NEAR(c.parts.logProb, likelihood * (c.upper == "春风开万户" ? -2.0 : -1.5), 1e-9);
        return cands.front().upper;
    };
    CHECK_EQ(ranked(1.0), std::string("春风开万户"));
    CHECK_EQ(ranked(100.0), std::string("花月春山喜"));
}

// A couplet that leaves out a keyword asked for ranks below one that holds it,
// however much likelier it is and whatever the keyword's weight; among those
// that hold as many keywords, the score decides.
COUPLET_TEST(aCoupletWithoutAKeywordNeverOutranksOneWithIt)
{
    const Fixture f;
    for (double keywordWeight : {0.0, 3.0}) {
        ScoreWeights weights;
        weights.likelihood = 20.0;
        weights.keywords = keywordWeight;
        const CoupletScorer scorer(f.vocab, f.tones, &f.align, weights);
        std::vector<Couplet> cands = {candidate("春风开万户", "瑞雪满千家", -1.0), candidate("花月春山喜", "水风雪地来", -4.0),
                                      candidate("春山花月喜", "雪地水风来", -3.0)};
        scorer.rerank(cands, {U"花月"});
        CHECK_EQ(cands[0].upper, std::string("春山花月喜"));   // holds 花月, likelier of the two that do
        CHECK_EQ(cands[1].upper, std::string("花月春山喜"));
        CHECK_EQ(cands[2].upper, std::string("春风开万户"));   // the likeliest, without 花月
        CHECK(cands[2].score > cands[0].score);
        // No keywords: the score alone.
        scorer.rerank(cands, {});
        CHECK_EQ(cands[0].upper, std::string("春风开万户"));
    }
}

COUPLET_TEST(generateSamplesTheRerankFactorPerCoupletAndKeepsTheBest)
{
    const Fixture f;
    const auto model = CoupletModel::load(f.dir, DeviceOptions{"cpu", false, 1});
    auto decoder = model->makeDecoder();
    GenerationSpec spec;
    spec.keywords = "春风";
    spec.candidates = 1;
    spec.sampling.seed = 21;
    const int sampled = kRerankPool;
    CHECK_EQ(sampledCandidates(spec), sampled);
    // One pool of at least 16 whether one couplet is asked for or three; 4 each beyond, 64 at most.
    for (const auto& [asked, pool] : std::vector<std::pair<int, int>>{{1, 16}, {3, 16}, {4, 16}, {5, 20}, {16, 64}}) {
        GenerationSpec more = spec;
        more.candidates = asked;
        CHECK_EQ(sampledCandidates(more), pool);
    }
    int streamed = 0;
    std::set<int> seen;
    const auto best = generateCouplets(*model, *decoder, spec, [&](int i, std::string_view) { seen.insert(i); ++streamed; });
    CHECK_EQ(seen.size(), std::size_t(sampled));
    CHECK_EQ(best.size(), std::size_t(1));
    // The kept ones are the best of all sampled: rescoring them all by hand agrees.
    spec.candidates = sampled;
    spec.rerank = false;
    auto all = generateCouplets(*model, *decoder, spec);
    spec.rerank = true;
    model->rerank(spec, all);
    CHECK_EQ(best[0].upper + best[0].lower, all[0].upper + all[0].lower);
    CHECK_NEAR(best[0].score, all[0].score, 1e-9);
    CHECK_NEAR(best[0].score, best[0].parts.total(), 1e-12);
}

// Read backwards by the shipped model, a couplet's 上联 is likelier as the
// answer to its own 下联 than to another couplet's; the figure is the decoder's
// own mean log-likelihood of the swapped pair; rerank adds it, weighted, only
// when asked.
COUPLET_TEST(shippedModelReadsACoupletBackwards)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"春风送暖千家乐", "瑞雪迎春万户欢"}, {"天增岁月人增寿", "春满乾坤福满门"},
        {"一帆风顺年年好", "万事如意步步高"}, {"爆竹声声辞旧岁", "梅花点点迎新春"}};
    std::vector<Couplet> own, swapped;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        Couplet c;
        c.upper = pairs[i].first;
        c.lower = pairs[i].second;
        own.push_back(c);
        c.lower = pairs[(i + 1) % pairs.size()].second;
        swapped.push_back(c);
    }
    const auto a = model->backwardLogProbs(own), b = model->backwardLogProbs(swapped);
    double sumOwn = 0, sumOther = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        CHECK(a[i] < 0 && b[i] < 0);
        sumOwn += a[i];
        sumOther += b[i];
    }
    CHECK(sumOwn > sumOther + 0.5 * double(pairs.size()));

    auto decoder = model->makeDecoder();
    const auto& vocab = model->vocab();
    const double nll = decoderTargetNll(*decoder, {answerExample(vocab.encode(own[0].lower), vocab.encode(own[0].upper))});
    CHECK_NEAR(a[0], -nll, 1e-6);
    // Unequal lines are not read.
    Couplet odd;
    odd.upper = "春风送暖";
    odd.lower = "瑞雪";
    const auto unread = model->backwardLogProbs({odd});
    CHECK_EQ(unread.size(), std::size_t(1));
    CHECK_EQ(unread[0], 0.0);

    GenerationSpec spec;
    spec.backwardWeight = 0; // the default: off
    auto ranked = own;
    model->rerank(spec, ranked);
    for (const auto& c : ranked) CHECK_EQ(c.parts.backward, 0.0);
    spec.backwardWeight = 2;
    ranked = own;
    model->rerank(spec, ranked);
    for (const auto& c : ranked) {
        const auto at = std::find_if(own.begin(), own.end(), [&](const Couplet& o) { return o.upper == c.upper; });
        CHECK_NEAR(c.parts.backward, 2 * a[std::size_t(at - own.begin())], 1e-9);
        CHECK_NEAR(c.score, c.parts.total(), 1e-12);
    }
}
