// A row's generation settings as they travel to a worker through Redis
// (row_codec.h): every field comes back, rows queued by an older version
// (without the decoding weights) get the defaults, and a broken spec is an
// error that says so.
#include "row_codec.h"

#include <check.h>

#include <stdexcept>
#include <string>

using namespace couplet;
using namespace couplet::cluster;

COUPLET_TEST(everySettingOfARowReachesTheWorker)
{
    GenerationSpec spec;
    spec.mode = PromptMode::Acrostic;
    spec.keywords = "五福";
    spec.acrostic = "春福";
    spec.embedAt = -1; // 雁足格
    spec.length = 9;
    spec.hengpi = "五福临门";
    spec.tonePattern = true;
    spec.freeHengpi = true;
    spec.keywordsMustAppear = true;
    spec.mixedZodiac = true;
    spec.year = 2027;
    spec.style = "verse";
    spec.candidates = 3;
    spec.rerank = false;
    spec.alignWeight = 0.75f;
    spec.lengthBias = 0.0f;
    spec.keywordBonus = 2.5f;
    spec.judgeWeight = 0.25f;
    spec.likelihoodWeight = 4.5f;
    spec.bigramWeight = 2.5f;
    spec.wholeKeywords = false;
    spec.sampling.temperature = 0.6f;
    spec.sampling.topK = 12;
    spec.sampling.topP = 0.8f;
    spec.sampling.repetitionPenalty = 1.4f;
    spec.sampling.seed = 123456789012345ULL;
    spec.sampling.greedy = true;
    const GenerationSpec back = specFromJson(specToJson(spec));
    CHECK(back.mode == PromptMode::Acrostic);
    CHECK_EQ(back.keywords, spec.keywords);
    CHECK_EQ(back.acrostic, spec.acrostic);
    CHECK_EQ(back.embedAt, -1);
    CHECK_EQ(back.length, 9);
    CHECK_EQ(back.hengpi, spec.hengpi);
    CHECK(back.tonePattern && back.freeHengpi && back.keywordsMustAppear && back.mixedZodiac);
    CHECK_EQ(back.year, 2027);
    CHECK_EQ(back.style, std::string("verse"));
    CHECK_EQ(back.candidates, 3);
    CHECK(!back.rerank);
    CHECK_EQ(back.alignWeight, 0.75f);
    CHECK_EQ(back.lengthBias, 0.0f);
    CHECK_EQ(back.keywordBonus, 2.5f);
    CHECK_EQ(back.judgeWeight, 0.25f);
    CHECK_EQ(back.likelihoodWeight, 4.5f);
    CHECK_EQ(back.bigramWeight, 2.5f);
    CHECK(!back.wholeKeywords);
    CHECK_EQ(back.sampling.temperature, 0.6f);
    CHECK_EQ(back.sampling.topK, 12);
    CHECK_EQ(back.sampling.topP, 0.8f);
    CHECK_EQ(back.sampling.repetitionPenalty, 1.4f);
    CHECK_EQ(back.sampling.seed, 123456789012345ULL);
    CHECK(back.sampling.greedy);
}

COUPLET_TEST(aRowFromAnOlderBatchGetsTheDefaultWeights)
{
    const std::string old = R"({"mode":"keywords","keywords":"家和","upper":"","acrostic":"","length":7,"hengpi":"",)"
                            R"("tone":false,"free_hengpi":false,"candidates":1,"temperature":0.8,"top_k":40,)"
                            R"("top_p":0.95,"repetition_penalty":1.1,"seed":7,"greedy":false})";
    const GenerationSpec spec = specFromJson(old);
    const GenerationSpec defaults;
    CHECK_EQ(spec.keywords, std::string("家和"));
    CHECK_EQ(spec.rerank, defaults.rerank);
    CHECK_EQ(spec.alignWeight, defaults.alignWeight);
    CHECK_EQ(spec.lengthBias, defaults.lengthBias);
    CHECK_EQ(spec.keywordBonus, defaults.keywordBonus);
    CHECK(!spec.keywordsMustAppear && !spec.mixedZodiac);
    CHECK_EQ(spec.year, 0);
    CHECK_EQ(spec.embedAt, 1); // 藏头, as before 嵌名 positions
}

COUPLET_TEST(aBrokenSpecIsAnErrorThatSaysSo)
{
    for (const std::string& bad : {std::string("{"), std::string(R"({"mode":"keywords"})"),
                                  std::string(R"({"mode":"keywords","keywords":3})")}) {
        std::string error;
        try {
            specFromJson(bad);
        } catch (const std::invalid_argument& e) {
            error = e.what();
        }
        CHECK(error.find("row spec is not valid") != std::string::npos);
    }
}
