// The trainer end to end on a tiny model and corpus: where a continuation's
// batches come from, what it writes into the weights' metadata, and style tokens.

#include "tiny_model.h"

#include "couplet_model.h"
#include "safetensors.h"
#include "style_lexicon.h"
#include "token_policy.h"
#include "trainer.h"
#include "training_data.h"

#include <check.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

using namespace couplet;

namespace {

// The model folder `from` copied to `to`, its weights' metadata "step" set to `step`.
std::filesystem::path withStepMetadata(const std::filesystem::path& from, const std::filesystem::path& to,
                                       const std::string& step)
{
    std::filesystem::create_directories(to);
    for (const auto& e : std::filesystem::directory_iterator(from))
        std::filesystem::copy_file(e.path(), to / e.path().filename());
    safetensors::save(to / "model.safetensors", safetensors::load(from / "model.safetensors"), {{"step", step}});
    return to;
}

TrainOptions tinyRun(const std::filesystem::path& data, const std::filesystem::path& init,
                     const std::filesystem::path& out, int steps)
{
    TrainOptions o = testing::tinyContinuation(data, init, out, steps);
    o.learningRate = 1e-2;
    o.seed = 1;
    return o;
}

std::string stepMetadata(const std::filesystem::path& model)
{
    return safetensors::loadMetadata(model / "model.safetensors").at("step");
}

bool sameWeights(const std::filesystem::path& a, const std::filesystem::path& b)
{
    const auto x = safetensors::load(a / "model.safetensors");
    const auto y = safetensors::load(b / "model.safetensors");
    if (x.size() != y.size()) return false;
    for (const auto& [name, t] : x)
        if (!y.count(name) || !torch::equal(t, y.at(name))) return false;
    return true;
}

} // namespace

// Fine-tuning weights that have taken N steps goes on with the batches from
// step N, not with those the run that made them began with; the same start
// gives the same weights, so the difference is the batches.
COUPLET_TEST(aContinuationDrawsTheBatchesAfterThoseItsWeightsSaw)
{
    const auto root = testing::freshTempDir("trainer-continuation");
    const auto data = testing::writeTinyDataFolder(root / "data", 200);
    const auto fresh = testing::writeTinyModel(root / "fresh", 3);
    const auto trained = withStepMetadata(fresh, root / "trained", "5");
    std::ostringstream log;

    train(tinyRun(data, fresh, root / "a", 3), log);
    train(tinyRun(data, fresh, root / "a-again", 3), log);
    train(tinyRun(data, trained, root / "b", 3), log);
    CHECK(sameWeights(root / "a", root / "a-again"));
    CHECK(!sameWeights(root / "a", root / "b"));
    CHECK(log.str().find("(trained 5 steps;") != std::string::npos);

    // The metadata counts every step the weights have taken; a resumed run keeps the count.
    CHECK_EQ(stepMetadata(root / "a"), std::string("3"));
    CHECK_EQ(stepMetadata(root / "b"), std::string("8"));
    auto resumed = tinyRun(data, {}, root / "b", 4);
    resumed.resume = true;
    train(resumed, log);
    CHECK_EQ(stepMetadata(root / "b"), std::string("9"));
    const auto state = nlohmann::json::parse(std::ifstream(root / "b" / "checkpoint" / "state.json"));
    CHECK_EQ(state.at("step").get<int>(), 4);
    CHECK_EQ(state.at("steps_before").get<int>(), 5);
}

COUPLET_TEST(weightsWhoseStepMetadataIsNotACountAreRefusedByName)
{
    const auto root = testing::freshTempDir("trainer-bad-step");
    const auto data = testing::writeTinyDataFolder(root / "data", 200);
    const auto bad = withStepMetadata(testing::writeTinyModel(root / "fresh", 3), root / "bad", "4k");
    std::ostringstream log;
    CHECK_THROWS(train(tinyRun(data, bad, root / "out", 1), log), "metadata \"step\" is \"4k\"");
    CHECK_THROWS(train(tinyRun(data, bad, root / "out", 1), log), (bad / "model.safetensors").string());
}

// A run shorter than its log interval still prints its figures as numbers
// (the validation line and the summary were "perplexity 1e+02", "1e+03 tokens").
COUPLET_TEST(aShortRunLogsItsFiguresAsPlainNumbers)
{
    const auto root = testing::freshTempDir("trainer-log");
    const auto data = testing::writeTinyDataFolder(root / "data", 200);
    auto o = tinyRun(data, testing::writeTinyModel(root / "fresh", 3), root / "out", 2);
    o.logEvery = 50;
    std::ostringstream log;
    train(o, log);
    const std::string text = log.str();
    CHECK(std::regex_search(text, std::regex("valid: 下联 NLL [0-9]+\\.[0-9]{4}  perplexity [0-9]+\\.[0-9]{2}\n")));
    CHECK(std::regex_search(text, std::regex("done: 2 steps, [0-9]+ tokens, [0-9]+\\.[0-9] min\n")));
    CHECK(text.find("e+") == std::string::npos);
}

// --resume goes on with the schedule the run began with: the checkpoint
// records it, and options left at their defaults take it back (a resume with
// the defaults restarted the learning rate at 1.5e-3 on a model annealed to
// 3.6e-5). A checkpoint from before the record says so; none at all is named.
COUPLET_TEST(aResumedRunTakesBackTheScheduleItsCheckpointRecorded)
{
    const auto root = testing::freshTempDir("trainer-resume-schedule");
    const auto data = testing::writeTinyDataFolder(root / "data", 200);
    auto first = tinyRun(data, testing::writeTinyModel(root / "fresh", 3), root / "out", 3);
    first.learningRate = 3e-3;
    first.minLearningRate = 2e-4;
    first.warmupSteps = 2;
    first.batchSize = 6;
    std::ostringstream log;
    train(first, log);

    TrainOptions resumed;
    resumed.dataDir = data;
    resumed.outDir = root / "out";
    resumed.resume = true;
    CHECK(loadResumedSchedule(resumed));
    CHECK_EQ(resumed.steps, 3);
    CHECK_EQ(resumed.learningRate, 3e-3);
    CHECK_EQ(resumed.minLearningRate, 2e-4);
    CHECK_EQ(resumed.warmupSteps, 2);
    CHECK_EQ(resumed.batchSize, 6);

    // Extending the run: the recorded schedule, with more steps.
    resumed.steps = 5;
    resumed.threads = 1;
    resumed.logEvery = 1;
    std::ostringstream resumeLog;
    train(resumed, resumeLog);
    CHECK(resumeLog.str().find("resuming at step 3 of 5 (learning rate 0.003 after 2 warm-up steps, cosine to "
                               "0.0002, batch 6)") != std::string::npos);
    CHECK_EQ(stepMetadata(root / "out"), std::string("5"));

    // A state.json an older trainer wrote has no schedule: nothing is changed.
    const auto statePath = root / "out" / "checkpoint" / "state.json";
    auto state = nlohmann::json::parse(std::ifstream(statePath));
    state.erase("schedule");
    std::ofstream(statePath) << state.dump();
    TrainOptions old;
    old.outDir = root / "out";
    CHECK(!loadResumedSchedule(old));
    CHECK_EQ(old.steps, TrainOptions().steps);

    std::ofstream(statePath) << "{\"step\": 3,";
    CHECK_THROWS(loadResumedSchedule(old), "not a trainer checkpoint state");
    TrainOptions none;
    none.outDir = root / "nowhere";
    CHECK_THROWS(loadResumedSchedule(none), "no checkpoint to resume");
}

namespace {

std::filesystem::path writeLexicon(const std::filesystem::path& file)
{
    std::ofstream(file) << "# test lexicon\n新春 2\n福 1\n祥 1  # festive with 福\n";
    return file;
}

// Pairs of one corpus, as TrainingData reads them.
std::filesystem::path writePairs(const std::filesystem::path& dir, const std::string& name,
                                 const std::vector<std::string>& lines)
{
    std::filesystem::create_directories(dir / "couplets");
    std::ofstream out(dir / "couplets" / (name + ".tsv"));
    for (const auto& l : lines) out << l << '\n';
    return dir;
}

} // namespace

// The lexicon marks the festive modern pairs; verse and primers are labelled
// by their file; and which pairs are validation does not change with labels.
COUPLET_TEST(styleLabelsComeFromTheLexiconAndLeaveTheValidationSplitAlone)
{
    const auto root = testing::freshTempDir("trainer-style-labels");
    const auto data = testing::writeTinyDataFolder(root / "data", 200);
    writePairs(data, "verse-tang", {"山水天地人\t风花月家门"});
    std::ofstream(data / "couplets" / "modern.tsv", std::ios::app) << "新春福满门\t瑞雪兆丰年\n福临家\t祥到户\n福到家\t春临户\n";
    const auto plain = TrainingData::load(data, 0.1);
    auto labelled = TrainingData::load(data, 0.1);
    const auto lexicon = StyleLexicon::load(writeLexicon(root / "festive.txt"));
    CHECK_EQ(lexicon.size(), std::size_t{3});
    CHECK(labelled.labelStyles(lexicon) >= 2);

    CHECK_EQ(plain.sources().size(), labelled.sources().size());
    for (std::size_t s = 0; s < plain.sources().size(); ++s) {
        const auto& a = plain.sources()[s].valid;
        const auto& b = labelled.sources()[s].valid;
        CHECK_EQ(a.size(), b.size());
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) CHECK(a[i].upper == b[i].upper && a[i].lower == b[i].lower);
    }
    std::map<std::u32string, WritingStyle> styles;
    for (const auto& src : labelled.sources())
        for (const auto* pairs : {&src.train, &src.valid})
            for (const auto& p : *pairs) styles[p.upper] = p.style;
    CHECK(styles.at(U"新春福满门") == WritingStyle::Festive); // 新春 alone weighs 2
    CHECK(styles.at(U"福临家") == WritingStyle::Festive);     // 福 and 祥 together
    CHECK(styles.at(U"福到家") == WritingStyle::Modern);      // 福 alone weighs 1
    CHECK(styles.at(U"山水天地人") == WritingStyle::Verse);

    std::ofstream(root / "bad.txt") << "新春 2\n福 three\n";
    CHECK_THROWS(StyleLexicon::load(root / "bad.txt"), "bad.txt: line 2: expected \"word weight\"");
}

// --styles on weights trained without them: the style tokens are appended (every
// other id stays), their embedding rows start as the mean row, the old rows are
// untouched, and the model folder keeps its lexicon. Its policies put the asked
// style after <bos> (festive by default); a model without styles refuses a style.
COUPLET_TEST(aStyledContinuationAppendsTheStyleTokensToTheVocabulary)
{
    const auto root = testing::freshTempDir("trainer-styles");
    const auto data = testing::writeTinyDataFolder(root / "data", 200);
    const auto fresh = testing::writeTinyModel(root / "fresh", 3);
    auto o = tinyRun(data, fresh, root / "styled", 1);
    o.styleLexicon = writeLexicon(root / "festive.txt");
    o.learningRate = 0; // the weights as they were grown
    o.minLearningRate = 0;
    std::ostringstream log;
    train(o, log);
    CHECK(log.str().find("styles: ") != std::string::npos);

    const auto before = Vocab::load(fresh / "vocab.txt"), after = Vocab::load(root / "styled" / "vocab.txt");
    CHECK(!before.hasStyles() && after.hasStyles());
    CHECK_EQ(after.size(), before.size() + 4);
    for (int id = 0; id < before.size(); ++id) CHECK_EQ(after.piece(id), before.piece(id));
    CHECK_EQ(after.styleToken(WritingStyle::Festive), before.size());
    CHECK_EQ(after.piece(after.styleToken(WritingStyle::Verse)), std::string("<verse>"));
    CHECK(!after.isCharacter(after.styleToken(WritingStyle::Modern)));
    CHECK(std::filesystem::exists(root / "styled" / "styles.txt"));

    const auto oldWte = safetensors::load(fresh / "model.safetensors").at("wte.weight").to(torch::kFloat32);
    const auto newWte = safetensors::load(root / "styled" / "model.safetensors").at("wte.weight").to(torch::kFloat32);
    CHECK(torch::allclose(newWte.slice(0, 0, before.size()), oldWte));
    CHECK(torch::allclose(newWte[before.size() + 3], oldWte.mean(0), 1e-4, 1e-5));

    const auto styled = CoupletModel::load(root / "styled");
    GenerationSpec spec;
    spec.keywords = "春";
    spec.length = 5;
    const auto secondToken = [&](const CoupletModel& model) { return model.makePolicy(spec)->promptTokens().at(1); };
    CHECK_EQ(secondToken(*styled), after.styleToken(WritingStyle::Festive));
    spec.style = "verse";
    CHECK_EQ(secondToken(*styled), after.styleToken(WritingStyle::Verse));
    spec.style = "autumn";
    CHECK(styled->validate(spec).find("style must be festive, modern, verse or classical") != std::string::npos);

    const auto plain = CoupletModel::load(fresh);
    spec.style = "festive";
    CHECK(plain->validate(spec).find("this model has no styles") != std::string::npos);
    spec.style.clear();
    CHECK_EQ(secondToken(*plain), tok::kKeywords);
}

// vocab.txt with style tokens reads back the same; a token that is no style,
// or a character after them, is refused by line.
COUPLET_TEST(styleTokensOfAVocabularyFileReadBackAndOthersAreRefused)
{
    const auto root = testing::freshTempDir("vocab-styles");
    const auto vocab = Vocab(std::vector<char32_t>{U'春', U'福'}).withStyleTokens();
    vocab.save(root / "vocab.txt");
    const auto back = Vocab::load(root / "vocab.txt");
    CHECK_EQ(back.size(), vocab.size());
    CHECK_EQ(back.styleToken(WritingStyle::Classical), vocab.size() - 1);
    CHECK_EQ(back.id(U'福'), vocab.id(U'福'));

    std::ofstream(root / "vocab.txt", std::ios::app) << "<autumn>\n";
    CHECK_THROWS(Vocab::load(root / "vocab.txt"), "unknown token <autumn>");
    vocab.save(root / "vocab.txt");
    std::ofstream(root / "vocab.txt", std::ios::app) << "秋\n";
    CHECK_THROWS(Vocab::load(root / "vocab.txt"), "a character after the style tokens");
}

// A data folder's couplets/mix.txt sets how often each corpus file is drawn
// (and whether it gets synthetic 横批); files it does not name keep the built-in
// weights, and a file added after the others leaves their validation split alone.
COUPLET_TEST(aDataFoldersMixFileSetsTheWeightsOfItsCorpora)
{
    const auto root = testing::freshTempDir("trainer-mix");
    const auto data = testing::writeTinyDataFolder(root / "data", 200);
    const auto before = TrainingData::load(data, 0.1);
    writePairs(data, "x-festive", {"新春福满门\t瑞雪兆丰年", "福临家\t祥到户"});
    std::ofstream(data / "couplets" / "mix.txt") << "# the festive pairs twice as often\nx-festive\t0.3\thengpi\n";
    const auto mixed = TrainingData::load(data, 0.1);
    CHECK_EQ(mixed.sources().size(), before.sources().size() + 1);
    for (std::size_t s = 0; s < before.sources().size(); ++s) {
        CHECK_EQ(mixed.sources()[s].weight, before.sources()[s].weight);
        const auto& a = before.sources()[s].valid;
        const auto& b = mixed.sources()[s].valid;
        CHECK_EQ(a.size(), b.size());
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) CHECK(a[i].upper == b[i].upper);
    }
    const auto& festive = mixed.sources().back();
    CHECK_EQ(festive.name, std::string("x-festive"));
    CHECK_EQ(festive.weight, 0.3);
    CHECK(festive.withHengpi);

    std::ofstream(data / "couplets" / "mix.txt") << "x-festive\tmuch\n";
    CHECK_THROWS(TrainingData::load(data, 0.1), "mix.txt: line 1: expected \"name<TAB>weight[<TAB>hengpi]\"");
}
