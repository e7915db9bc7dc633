#include "tiny_model.h"

#include "couplet_model.h"
#include "generate.h"
#include "hengpi_list.h"
#include "line_marks.h"
#include "line_shape.h"
#include "sampler.h"
#include "tone_table.h"
#include "utf8.h"
#include "vocab.h"

#include <check.h>

#include <set>

using namespace couplet;

namespace {

const std::filesystem::path& tinyModelDir()
{
    static const auto dir = testing::writeTinyModel(testing::freshTempDir("constraints") / "m", 3);
    return dir;
}

std::shared_ptr<const CoupletModel> tinyModel()
{
    static auto model = CoupletModel::load(tinyModelDir(), DeviceOptions{"cpu", false, 1});
    return model;
}

// A length counts Han characters; a line of 8 or more has one mark after the
// 4th to the (n-4)th character (9: after 4 or 5), a shorter one none.
void checkLength(const std::u32string& line, int length)
{
    CHECK_EQ(countCharacters(line), length);
    const LineMarks m = lineMarks(line, length);
    CHECK_EQ(m.misplaced, 0);
    CHECK_EQ(m.marks, lineShapeFor(length).marked() ? 1 : 0);
}

// Every rule of CoupletConstraints, checked on a finished couplet.
void checkCouplet(const Couplet& c, const GenerationSpec& spec, const ToneTable& tones, const std::set<std::u32string>& phrases)
{
    const auto up = utf8::decode(c.upper), down = utf8::decode(c.lower), hp = utf8::decode(c.hengpi);
    CHECK(!up.empty());
    CHECK_EQ(up.size(), down.size());
    if (spec.mode == PromptMode::Upper) CHECK_EQ(c.upper, spec.upper);
    else if (spec.length > 0) checkLength(up, spec.length);
    for (std::size_t i = 0; i < up.size(); ++i) {
        CHECK(utf8::isHan(up[i]) || isCoupletPunctuation(up[i]));
        if (isCoupletPunctuation(up[i])) {
            CHECK(down[i] == up[i]);
            continue;
        }
        CHECK(utf8::isHan(down[i]));
        std::size_t firstUp = up.find(up[i]);
        if (firstUp < i) {
            CHECK(down[i] == down[firstUp]); // 叠字 mirrored
        } else {
            CHECK(up.find(down[i]) == std::u32string::npos);       // no 上联 character
            CHECK(down.find(down[i]) == i);                         // no repeat the 上联 lacks
        }
    }
    CHECK(!isCoupletPunctuation(up.back()));
    CHECK_EQ(hp.size(), std::size_t(4));
    for (char32_t ch : hp) CHECK(utf8::isHan(ch));
    if (!spec.hengpi.empty()) CHECK_EQ(c.hengpi, spec.hengpi);
    else if (!spec.freeHengpi) CHECK(phrases.count(hp) == 1);
    const auto ac = utf8::decode(spec.acrostic);
    if (!ac.empty()) CHECK(up[0] == ac[0]);
    if (ac.size() > 1) CHECK(down[0] == ac[1]);
    if (spec.tonePattern) {
        CHECK(tones.tone(up.back()) == Tone::Oblique);
        CHECK(tones.tone(down.back()) == Tone::Level);
    }
}

std::vector<GenerationSpec> specs()
{
    std::vector<GenerationSpec> out;
    for (int length : {5, 7, 8, 9, 0, 11}) {
        GenerationSpec s;
        s.keywords = "春 福";
        s.length = length;
        out.push_back(s);
    }
    GenerationSpec upper;
    upper.mode = PromptMode::Upper;
    upper.upper = "山山水水，千家万户";
    out.push_back(upper);
    upper.upper = "春风";
    out.push_back(upper);
    GenerationSpec acrostic;
    acrostic.mode = PromptMode::Acrostic;
    acrostic.acrostic = "龙凤";
    acrostic.length = 7;
    out.push_back(acrostic);
    GenerationSpec tone;
    tone.keywords = "新年";
    tone.length = 7;
    tone.tonePattern = true;
    out.push_back(tone);
    tone.length = 0;
    out.push_back(tone);
    GenerationSpec fixed;
    fixed.keywords = "家";
    fixed.hengpi = "花开富贵";
    out.push_back(fixed);
    GenerationSpec freeHp;
    freeHp.keywords = "山水";
    freeHp.freeHengpi = true;
    out.push_back(freeHp);
    return out;
}

} // namespace

COUPLET_TEST(everyConstraintHoldsOnManySamples)
{
    const auto model = tinyModel();
    auto decoder = model->makeDecoder();
    const auto tones = ToneTable::load(tinyModelDir() / "tones.tsv");
    std::set<std::u32string> phrases;
    const auto list = HengpiList::load(tinyModelDir() / "hengpi.txt");
    for (const auto& p : list.phrases()) phrases.insert(p.text);
    int checked = 0;
    for (auto spec : specs()) {
        spec.candidates = 8;
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            spec.sampling.seed = seed * 100;
            spec.sampling.temperature = 1.5f; // wide sampling: the masks must do the work
            for (const auto& c : generateCouplets(*model, *decoder, spec)) {
                checkCouplet(c, spec, tones, phrases);
                ++checked;
            }
        }
    }
    CHECK_EQ(checked, static_cast<int>(specs().size()) * 8 * 4);
}

COUPLET_TEST(sameSeedGivesSameCouplet)
{
    const auto model = tinyModel();
    auto decoder = model->makeDecoder();
    GenerationSpec spec;
    spec.keywords = "春";
    spec.sampling.seed = 77;
    spec.rerank = false;
    const auto a = generateCouplets(*model, *decoder, spec);
    const auto b = generateCouplets(*model, *decoder, spec);
    CHECK_EQ(a[0].upper + a[0].lower + a[0].hengpi, b[0].upper + b[0].lower + b[0].hengpi);
    CHECK_EQ(a[0].seed, std::uint64_t(77));
    spec.rerank = true; // the best of kRerankPool candidates seeded from 77, the same one every time
    const auto c = generateCouplets(*model, *decoder, spec);
    CHECK_EQ(c[0].upper + c[0].lower, generateCouplets(*model, *decoder, spec)[0].upper
                                          + generateCouplets(*model, *decoder, spec)[0].lower);
    bool fromThisRequest = false;
    for (int i = 0; i < kRerankPool; ++i) fromThisRequest = fromThisRequest || c[0].seed == candidateSeed(77, i);
    CHECK(fromThisRequest);
    // The winner's seed, asked for alone, writes the same couplet.
    spec.rerank = false;
    spec.sampling.seed = c[0].seed;
    const auto again = generateCouplets(*model, *decoder, spec);
    CHECK_EQ(again[0].upper + again[0].lower + again[0].hengpi, c[0].upper + c[0].lower + c[0].hengpi);
}

COUPLET_TEST(candidatesAreRankedByScore)
{
    const auto model = tinyModel();
    auto decoder = model->makeDecoder();
    GenerationSpec spec;
    spec.keywords = "福";
    spec.candidates = 6;
    spec.sampling.seed = 5;
    const auto out = generateCouplets(*model, *decoder, spec);
    CHECK_EQ(out.size(), std::size_t(6));
    for (std::size_t i = 1; i < out.size(); ++i) CHECK(out[i - 1].score >= out[i].score);
}
