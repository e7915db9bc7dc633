#pragma once

#include "couplet_judge.h"
#include "training_data.h"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace couplet {

class CoupletModel;

// `couplet train-judge`: what the judge is trained on and how.
struct JudgeTrainOptions {
    std::filesystem::path dataDir;
    // Training-split pairs drawn by corpus weight (TrainingData::drawPair):
    // each is one real couplet and, for its prompt, one the model samples.
    int pairs = 20000;
    int validPairs = 0;          // validation-split pairs to report on; 0 = all of them
    double upperShare = 0.5;     // prompts that give the real 上联 (the model writes the 下联); the rest give keywords
    // Extra negatives, per training pair: real 上联 with another pair's 下联 of
    // the same shape (an easy negative that teaches 对仗), from training pairs
    // drawn for it (never the positives).
    double swappedShare = 1.0;
    int epochs = 5;
    double learningRate = 0.1;   // AdaGrad
    double l2 = 1e-6;
    int hashBits = CoupletJudge::kDefaultHashBits;
    std::uint64_t seed = 1;
    int batch = 64;              // scheduler rows while sampling
    // Where to keep the model's samples: read when the file exists (written
    // for the same data, model, pairs, seed and share), else sampled and
    // written, so that the fit can be repeated without sampling again.
    std::filesystem::path samplesFile;
};

// The judge's figures on held-out data: real couplets of the validation
// split against the model's samples for the same prompts, and against the
// same real couplets with another pair's 下联.
struct JudgeReport {
    std::size_t trainReal = 0, trainNegative = 0, validReal = 0, validGenerated = 0, swappedPairs = 0;
    double accuracy = 0;           // real vs generated, log-odds above 0 = real
    double aucGenerated = 0;       // real vs generated
    double aucGivenUpper = 0;      // ... for prompts that give the 上联
    double aucKeywords = 0;        // ... for keyword prompts
    double aucSwapped = 0;         // real vs swapped 下联
    double sampleSeconds = 0, fitSeconds = 0;
};

// Samples the negatives with `model` (its own generator, not reranked),
// fits a CoupletJudge by logistic regression with AdaGrad, and reports on
// the validation split (whose pairs are never trained on). Progress on `log`.
JudgeReport trainJudge(const CoupletModel& model, const JudgeTrainOptions& options, CoupletJudge& judge, std::ostream& log);

// One couplet with a verdict: printable as it is (a designer's or a blind
// judge's), or not.
struct LabelledCouplet {
    std::u32string upper, lower;
    bool printable = false;
};

// What a judge fitted on verdicts scores on the verdicts it was not fitted on.
struct VerdictReport {
    std::size_t trainPrintable = 0, trainRejected = 0, heldPrintable = 0, heldRejected = 0;
    double heldAuc = 0;      // printable vs not, held-out verdicts
    double fitSeconds = 0;
};

// Reads "1|0<TAB>上联<TAB>下联[<TAB>...]" lines (1 = printable); throws
// std::runtime_error naming the file and line of one that is not.
std::vector<LabelledCouplet> readVerdicts(const std::filesystem::path& path);

// Fits a CoupletJudge to verdicts instead of to real-vs-sampled couplets:
// its score is then the log-odds that a judge prints the couplet. Verdicts
// whose 上联 hashes into the held-out tenth are kept out of the fit and
// reported on (the same 上联 never sits on both sides).
VerdictReport trainJudgeOnVerdicts(const CoupletModel& model, const std::vector<LabelledCouplet>& verdicts,
                                   const JudgeTrainOptions& options, CoupletJudge& judge, std::ostream& log);

// The probability that a positive scores above a negative (ties count half).
double rocAuc(const std::vector<double>& positive, const std::vector<double>& negative);

// The pairs with each 下联 replaced by another pair's of the same shape
// (length and marks), deterministically by `seed`; pairs whose shape no
// other pair has are left out.
std::vector<CouplePair> swappedLowerLines(const std::vector<CouplePair>& pairs, std::uint64_t seed);

// AUC of `judge` on real pairs against swappedLowerLines(pairs, seed).
double swappedAuc(const CoupletJudge& judge, const JudgeTables& tables, const std::vector<CouplePair>& pairs,
                  std::uint64_t seed, std::size_t* swapped = nullptr);

} // namespace couplet
