// The learned judge of human-likeness (judge.bin): on the shipped model it
// tells real couplets (the judged sheets' controls) from the same couplets with
// another pair's 下联; it is one term of the rerank; a damaged or mismatched
// file is refused naming it; `couplet train-judge` runs end to end.

#include "cli_under_test.h"
#include "tiny_model.h"

#include "couplet_judge.h"
#include "couplet_model.h"
#include "judge_training.h"
#include "training_data.h"
#include "utf8.h"

#include <check.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <random>
#include <sstream>
#include <set>

using namespace couplet;

namespace {

// The real couplets of the blind-judged sheets (the human controls in their
// keys, docs/judged/2026-12-06/*/key.json): couplets from the modern corpus
// that the sheets' rule picked, some perhaps in the judge's training split.
// The training data itself is not in the repository.
std::vector<CouplePair> judgedControls()
{
    const char* dir = std::getenv("COUPLET_JUDGED_DIR");
    if (dir == nullptr) throw std::runtime_error("COUPLET_JUDGED_DIR is not set (CTest sets it)");
    std::vector<CouplePair> pairs;
    std::set<std::u32string> seen;
    for (const char* sheet : {"before", "after"}) {
        const auto file = std::filesystem::path(dir) / sheet / "key.json";
        std::ifstream in(file);
        if (!in) throw std::runtime_error("cannot read " + file.string());
        for (const auto& row : nlohmann::json::parse(in)) {
            if (row["source"] != "control") continue;
            CouplePair p{utf8::decode(row["upper"].get<std::string>()), utf8::decode(row["lower"].get<std::string>())};
            if (seen.insert(p.upper + U"/" + p.lower).second) pairs.push_back(p);
        }
    }
    return pairs;
}

std::pair<int, std::string> runCli(const std::string& arguments, const std::filesystem::path& log)
{
    const std::string command = testing::cliUnderTest() + " " + arguments + " > " + log.string() + " 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(log);
    return {status, std::string((std::istreambuf_iterator<char>(in)), {})};
}

void corruptByte(const std::filesystem::path& file, std::size_t offset)
{
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(offset));
    char c = 0;
    f.get(c);
    f.seekp(static_cast<std::streamoff>(offset));
    f.put(static_cast<char>(c ^ 0x5a));
}

} // namespace

COUPLET_TEST(shippedJudgeSeparatesRealFromSwappedLowerLines)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir());
    CHECK(model->judge() != nullptr);
    const auto pairs = judgedControls();
    CHECK(pairs.size() >= 40);
    std::size_t swapped = 0;
    const double auc = swappedAuc(*model->judge(), model->judgeTables(), pairs, 35, &swapped);
    std::cout << "shipped judge: AUC " << auc << ", " << pairs.size() << " real couplets (the judged sheets' controls) against "
              << swapped << " with another pair's 下联 of the same shape\n";
    CHECK(swapped >= 30);
    CHECK(auc > 0.75);
}

// The judge is a term of the rerank when asked for: its weighted log-odds, in the total; off by default.
COUPLET_TEST(judgeIsATermOfTheRerank)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir());
    CHECK(model->judge() != nullptr);
    GenerationSpec spec;
    spec.keywords = "春风";
    std::vector<Couplet> candidates(2);
    candidates[0].upper = "春风送暖千家乐", candidates[0].lower = "旭日临门万户欢";
    candidates[1].upper = "春风送暖千家乐", candidates[1].lower = "秋水无痕一叶舟";
    spec.judgeWeight = 1;
    model->rerank(spec, candidates);
    for (const auto& c : candidates) {
        const double raw = model->judge()->score(utf8::decode(c.upper), utf8::decode(c.lower), model->judgeTables());
        CHECK(raw != 0);
        CHECK_NEAR(c.parts.judge, raw, 1e-9);
        CHECK_NEAR(c.score, c.parts.total(), 1e-9);
    }
    spec.judgeWeight = 0.5f; // another weight, the same sign, scaled
    model->rerank(spec, candidates);
    for (const auto& c : candidates)
        CHECK_NEAR(c.parts.judge,
                   0.5 * model->judge()->score(utf8::decode(c.upper), utf8::decode(c.lower), model->judgeTables()), 1e-6);
    // The model's default (-1) is off: blind judges passed fewer of the couplets
    // it chose (sheet Z14), though judge.bin is loaded.
    spec.judgeWeight = -1;
    model->rerank(spec, candidates);
    for (const auto& c : candidates) CHECK_EQ(c.parts.judge, 0.0);
    spec.judgeWeight = 0;
    model->rerank(spec, candidates);
    for (const auto& c : candidates) CHECK_EQ(c.parts.judge, 0.0);
}

COUPLET_TEST(aDamagedOrMismatchedJudgeIsRefusedNamingTheFile)
{
    const auto dir = testing::writeTinyModel(testing::freshTempDir("judge-file") / "m");
    const auto file = dir / kJudgeFile;
    CoupletJudge judge(12, judgeTablesFingerprint(dir));
    judge.bias() = 0.5f;
    judge.sparse()[7] = -1.25f;
    judge.save(file);
    const auto loaded = CoupletModel::load(dir);
    CHECK(loaded->judge() != nullptr);
    CHECK_EQ(loaded->judge()->sparse().size(), std::size_t(1) << 12);

    const auto size = std::filesystem::file_size(file);
    corruptByte(file, size / 2);
    CHECK_THROWS(CoupletModel::load(dir), "cannot load model: " + file.string() + ": checksum mismatch");
    judge.save(file);
    std::filesystem::resize_file(file, size - 100);
    CHECK_THROWS(CoupletModel::load(dir), file.string() + ": " + std::to_string(size - 100) + " bytes where");
    std::ofstream(file, std::ios::binary | std::ios::trunc) << "not a judge";
    CHECK_THROWS(CoupletModel::load(dir), file.string() + ": not a couplet judge file");
    CoupletJudge(12, 12345).save(file);
    CHECK_THROWS(CoupletModel::load(dir), file.string() + ": trained for other tables");
    CHECK_THROWS(CoupletModel::load(dir), "couplet train-judge");
    std::filesystem::remove(file);
    CHECK(CoupletModel::load(dir)->judge() == nullptr); // a folder without one: no judge term
}

COUPLET_TEST(trainJudgeOnATinyDataSetWritesALoadableFile)
{
    const auto root = testing::freshTempDir("train-judge");
    const auto model = testing::writeTinyModel(root / "model", 3);
    std::filesystem::create_directories(root / "data" / "couplets");
    testing::writeTinyCorpus(root / "data" / "couplets" / "modern.tsv", 400, 5);
    const auto out = root / "judge.bin";
    const auto [status, log] = runCli("train-judge --data " + (root / "data").string() + " --model " + model.string()
                                          + " --out " + out.string() + " --pairs 150 --epochs 2 --bits 12 --threads 1",
                                      root / "train.log");
    std::cout << log;
    CHECK_EQ(status, 0);
    CHECK(log.find("wrote " + out.string()) != std::string::npos);
    CHECK(log.find("AUC") != std::string::npos);
    std::filesystem::copy_file(out, model / kJudgeFile);
    const auto loaded = CoupletModel::load(model);
    CHECK(loaded->judge() != nullptr);
    CHECK_EQ(loaded->judge()->hashBits(), 12);

    const auto [badStatus, badLog] = runCli("train-judge --model " + model.string(), root / "bad.log");
    CHECK(badStatus != 0);
    CHECK(badLog.find("--data is required") != std::string::npos);
}

// `train-judge --verdicts`: a judge fitted to blind verdicts on the model's own
// couplets (docs/judged/2026-12-06/verdict-judge/verdicts.tsv, 9,000 couplets
// each judged printable or not) ranks the held-out tenth better than chance;
// a malformed verdict line is refused naming its file and line.
COUPLET_TEST(judgeFittedToVerdictsRanksHeldOutVerdicts)
{
    const char* dir = std::getenv("COUPLET_JUDGED_DIR");
    CHECK(dir != nullptr);
    const auto verdicts = readVerdicts(std::filesystem::path(dir) / "verdict-judge" / "verdicts.tsv");
    CHECK_EQ(verdicts.size(), std::size_t(9000));
    const auto printable = std::count_if(verdicts.begin(), verdicts.end(), [](const auto& v) { return v.printable; });
    CHECK(printable > 300 && printable < 1500);

    const auto model = CoupletModel::load(CoupletModel::defaultModelDir());
    JudgeTrainOptions o;
    o.epochs = 3;
    o.learningRate = 0.03;
    CoupletJudge judge;
    std::ostringstream log;
    const VerdictReport r = trainJudgeOnVerdicts(*model, verdicts, o, judge, log);
    std::cout << log.str() << "held out: " << r.heldPrintable << " printable, " << r.heldRejected << " rejected, AUC "
              << r.heldAuc << "\n";
    CHECK(r.heldPrintable >= 30);
    CHECK_EQ(r.trainPrintable + r.trainRejected + r.heldPrintable + r.heldRejected, verdicts.size());
    CHECK(r.heldAuc > 0.65);

    const auto root = testing::freshTempDir("verdicts");
    {
        std::ofstream bad(root / "bad.tsv");
        bad << "# a comment\n1\t春风送暖\t旭日迎新\nyes\t春风送暖千家乐\t旭日迎新万户欢\n";
    }
    const auto [status, text] = runCli("train-judge --verdicts " + (root / "bad.tsv").string() + " --model "
                                           + CoupletModel::defaultModelDir().string() + " --out " + (root / "j.bin").string(),
                                       root / "bad.log");
    std::cout << text;
    CHECK(status != 0);
    CHECK(text.find("bad.tsv:3") != std::string::npos);
    CHECK(!std::filesystem::exists(root / "j.bin"));
}
