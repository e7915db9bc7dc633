#include "commands.h"
#include "model_options.h"

#include "couplet_judge.h"
#include "couplet_model.h"
#include "judge_training.h"
#include "utf8.h"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>

namespace couplet::cli {
namespace {

void printHelp()
{
    std::cout << "couplet train-judge --data DIR [--out FILE] [--pairs N] [--valid-pairs N] [--upper-share X]\n"
                 "                    [--swapped-share X] [--epochs N] [--lr X] [--l2 X] [--bits N] [--seed N] [--batch N]\n"
                 "                    [--samples FILE]\n"
                 "  trains the learned judge of human-likeness that reranking adds to a couplet's score: a\n"
                 "  logistic regression that tells the real couplets of the training split from the model's own\n"
                 "  samples for the same prompts (the real 上联 given, or keywords drawn from the couplet), and\n"
                 "  reports its accuracy and AUC on the validation split. Writes FILE (default: judge.bin in the\n"
                 "  model folder, where the model loads it).\n"
                 "  --pairs N          training pairs drawn by corpus weight, each with one model sample (default 20000)\n"
                 "  --valid-pairs N    validation pairs to report on (default 0 = all)\n"
                 "  --upper-share X    share of prompts that give the 上联 (default 0.5; the rest give keywords)\n"
                 "  --swapped-share X  extra negatives per pair: a real 上联 with another pair's 下联 (default 1)\n"
                 "  --epochs N, --lr X, --l2 X   AdaGrad passes (5), step (0.1), L2 (1e-6)\n"
                 "  --bits N           2^N hashed feature weights (default 19: 2 MB)\n"
                 "  --samples FILE     keep the model's samples in FILE, and reuse them when it exists (sampled for\n"
                 "                     the same model, --pairs, --valid-pairs, --seed and --upper-share)\n"
                 "couplet train-judge --verdicts FILE.tsv [--out FILE] [--epochs N] [--lr X] [--l2 X] [--bits N]\n"
                 "  fits the judge to verdicts instead: \"1 or 0<TAB>上联<TAB>下联\" lines (1 = printable as it is), so\n"
                 "  that its score is the log-odds that a judge prints the couplet; reports its AUC on the tenth of\n"
                 "  the verdicts it holds out (by the 上联). No data folder is read and nothing is sampled.\n"
                 "couplet train-judge --score FILE.tsv\n"
                 "  prints the model's judge score (log-odds written by a person) before each \"上联<TAB>下联...\" line\n"
              << modelOptionsHelp();
}

// The score of every "上联<TAB>下联[<TAB>...]" line of `path`, written before it.
int scoreFile(const CoupletModel& model, const std::filesystem::path& path)
{
    const CoupletJudge* judge = model.judge();
    if (judge == nullptr)
        throw std::runtime_error((model.dir() / kJudgeFile).string() + ": no judge in this model folder (train one first)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path.string() + ": cannot open");
    const JudgeTables tables = model.judgeTables();
    std::string line;
    int lineNo = 0;
    std::cout << std::fixed << std::setprecision(4);
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto tab = line.find('\t');
        if (tab == std::string::npos || utf8::firstInvalid(line) != std::string::npos)
            throw std::runtime_error(path.string() + ":" + std::to_string(lineNo) + ": expected UTF-8 \"上联<TAB>下联\"");
        const auto end = line.find('\t', tab + 1);
        const auto up = utf8::decode(line.substr(0, tab));
        const auto down = utf8::decode(line.substr(tab + 1, end == std::string::npos ? end : end - tab - 1));
        std::cout << judge->score(up, down, tables) << '\t' << line << '\n';
    }
    return 0;
}

// How the logistic regression is fitted: --epochs, --lr, --l2, --bits, --seed,
// checked; the same for both ways of training the judge.
JudgeTrainOptions fitOptions(Args& args)
{
    JudgeTrainOptions o;
    o.epochs = args.integer("epochs", o.epochs);
    o.learningRate = args.number("lr", o.learningRate);
    o.l2 = args.number("l2", o.l2);
    o.hashBits = args.integer("bits", o.hashBits);
    o.seed = static_cast<std::uint64_t>(args.integer("seed", 1));
    if (o.epochs < 1) throw UsageError("--epochs must be at least 1");
    if (!(o.learningRate > 0) || !(o.l2 >= 0)) throw UsageError("--lr must be positive and --l2 not negative");
    if (o.hashBits < 10 || o.hashBits > 24) throw UsageError("--bits must be 10 to 24, not " + std::to_string(o.hashBits));
    return o;
}

// `--verdicts FILE`: the judge fitted to printable / not verdicts.
int trainOnVerdicts(Args& args)
{
    const std::filesystem::path file = args.value("verdicts");
    std::filesystem::path out = args.value("out");
    const JudgeTrainOptions o = fitOptions(args);
    const auto verdicts = readVerdicts(file);
    auto model = loadModel(args);
    args.finish();
    if (out.empty()) out = model->dir() / kJudgeFile;
    CoupletJudge judge;
    const VerdictReport r = trainJudgeOnVerdicts(*model, verdicts, o, judge, std::cout);
    judge.save(out);
    std::cout << std::fixed << std::setprecision(3) << "wrote " << out.string() << " (" << std::filesystem::file_size(out)
              << " bytes) in " << r.fitSeconds << " s\n"
              << "fitted on " << r.trainPrintable << " printable and " << r.trainRejected << " rejected couplets\n"
              << "held out (" << r.heldPrintable << " printable, " << r.heldRejected << " rejected): AUC " << r.heldAuc
              << "\n";
    return 0;
}

} // namespace

int runTrainJudge(Args& args)
{
    if (args.flag("help")) {
        printHelp();
        return 0;
    }
    if (args.has("score")) {
        const std::filesystem::path file = args.value("score");
        auto model = loadModel(args);
        args.finish();
        return scoreFile(*model, file);
    }
    if (args.has("verdicts")) return trainOnVerdicts(args);
    const std::filesystem::path dataDir = args.value("data");
    if (dataDir.empty()) throw UsageError("--data is required (the training data folder)");
    JudgeTrainOptions o = fitOptions(args);
    o.dataDir = dataDir;
    std::filesystem::path out = args.value("out");
    o.pairs = args.integer("pairs", o.pairs);
    o.validPairs = args.integer("valid-pairs", o.validPairs);
    o.upperShare = args.number("upper-share", o.upperShare);
    o.swappedShare = args.number("swapped-share", o.swappedShare);
    o.batch = args.integer("batch", o.batch);
    o.samplesFile = args.value("samples");
    if (o.pairs < 1 || o.validPairs < 0 || o.batch < 1)
        throw UsageError("--pairs and --batch must be at least 1, --valid-pairs 0 or more");
    if (!(o.upperShare >= 0 && o.upperShare <= 1) || !(o.swappedShare >= 0 && o.swappedShare <= 1))
        throw UsageError("--upper-share and --swapped-share must be between 0 and 1");
    auto model = loadModel(args);
    args.finish();
    if (out.empty()) out = model->dir() / kJudgeFile;

    const auto start = std::chrono::steady_clock::now();
    CoupletJudge judge;
    const JudgeReport r = trainJudge(*model, o, judge, std::cout);
    judge.save(out);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << std::fixed << std::setprecision(3) << "wrote " << out.string() << " (" << std::filesystem::file_size(out)
              << " bytes) in " << seconds << " s: sampling " << r.sampleSeconds << " s, fitting " << r.fitSeconds << " s\n"
              << "trained on " << r.trainReal << " real and " << r.trainNegative << " other couplets\n"
              << "validation split, real vs the model's samples for the same prompts (" << r.validReal << " + "
              << r.validGenerated << "):\n"
              << "  accuracy             " << 100 * r.accuracy << " %\n"
              << "  AUC                  " << r.aucGenerated << "\n"
              << "  AUC, 上联 given       " << r.aucGivenUpper << "\n"
              << "  AUC, keywords        " << r.aucKeywords << "\n"
              << "validation split, real vs another pair's 下联 of the same shape (" << r.swappedPairs << " swapped):\n"
              << "  AUC                  " << r.aucSwapped << "\n";
    return 0;
}

} // namespace couplet::cli
