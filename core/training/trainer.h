#pragma once

#include "model_config.h"

#include <filesystem>
#include <iosfwd>
#include <vector>

namespace couplet {

struct TrainOptions {
    std::filesystem::path dataDir;  // holds couplets/*.tsv and idioms/
    std::filesystem::path outDir;   // model folder; also holds the resumable checkpoint
    ModelConfig config;             // vocabSize is filled in from the data
    int batchSize = 128;
    int steps = 8000;               // total optimiser steps (the schedule spans these)
    double learningRate = 1.5e-3;
    double minLearningRate = 1e-4;
    int warmupSteps = 300;
    double weightDecay = 0.05;
    int threads = 0;                // 0 = all cores
    int logEvery = 50;
    int evalEvery = 500;
    int saveEvery = 250;
    double maxMinutes = 0;          // stop (with a checkpoint) after this long; 0 = no limit
    bool resume = false;            // continue from outDir's checkpoint
    std::filesystem::path initFrom; // start from this model folder's weights, vocabulary and config (fresh optimiser)
    // With initFrom: deepen the model to this many layers. Each new layer is a
    // copy of the one below it with its attention output and MLP down
    // projection zeroed, so the deeper model starts as the same function.
    int growLayers = 0;
    // Style tokens (vocab.h): every example says its style after <bos>, the
    // festive modern couplets found by this lexicon (StyleLexicon), which is
    // kept in outDir as styles.txt. With initFrom, the style tokens are
    // appended to its vocabulary and their embedding rows start as the mean
    // row. Empty = no styles (a resumed run keeps what outDir has).
    std::filesystem::path styleLexicon;
    // Theme examples (example_index.h): with this theme lexicon (a themes.tsv,
    // kept in outDir as themes.tsv), the <ex> token is appended to the
    // vocabulary (its embedding row starts as the mean row) and a share
    // `exampleRate` of the examples read a related couplet of the same
    // source's training split before their prompt, as context. Empty = none
    // (a run from weights with <ex> keeps examples on, with their lexicon).
    std::filesystem::path exampleThemes;
    double exampleRate = 0.7;
    // Partner embeddings (ModelConfig::partners): the model gets P, which
    // starts at zero; with initFrom the weights without P compute the same
    // function at step 0. A resumed run, or weights that have P, keep theirs.
    bool partners = false;
    // P's learning rate as a multiple of the others' (its own parameter group
    // when not 1): from zero, AdamW moves an entry by about the learning rate a
    // step. Recorded in the checkpoint's schedule.
    double partnerLrScale = 1;
    // Preference training (preference_data.h): with a file of judged pairs
    // (a couplet blind judges passed and one they did not, for one request),
    // every step adds preferenceWeight x the DPO loss of preferenceBatch of
    // them to the next-token loss, measured against the starting weights'
    // log-probabilities (kept in checkpoint/, so that --resume goes on
    // against the same). About 1 request in 10 is held out and measured.
    std::filesystem::path preferences;
    double preferenceBeta = 0.1;
    double preferenceWeight = 1.0;
    int preferenceBatch = 32;
    int vocabMinCount = 3;
    std::uint64_t seed = 1;
    std::string device = "cpu";
    // The forward pass's matrix products in bf16 (autocast; weights, optimiser
    // and loss stay fp32). On a CPU with avx512_bf16 libtorch's bf16 products
    // (oneDNN) run several times faster than its fp32 ones (OpenBLAS); `couplet
    // train` turns it on there unless given --fp32.
    bool bf16 = false;
};

// Trains the couplet model (see TrainingData for the mix and the format),
// printing loss, tokens/s and ETA to `log`, evaluating on the validation
// split, and saving config.json, vocab.txt, hengpi.txt, tones.tsv,
// model.safetensors and checkpoint/ into outDir.
void train(const TrainOptions& options, std::ostream& log);

// Sets the schedule options (steps, batch, learning rates, warm-up, weight
// decay) to those outDir's checkpoint was trained with, so that a resumed run
// continues the same cosine rather than the defaults'; the caller applies
// whatever the user overrides afterwards. False when the checkpoint predates
// the record (nothing is changed); throws, naming the file, when there is no
// readable checkpoint.
bool loadResumedSchedule(TrainOptions& options);

// Copies a trained model folder (config, vocabulary, tones, 横批 list, style
// lexicon and 对仗 table when present, and weights, without the checkpoint) to `to`, storing the weights as fp16 when
// `half` is set: half the size, and what a GPU runs anyway.
void exportModel(const std::filesystem::path& from, const std::filesystem::path& to, bool half);

class LmImpl;
struct TrainingExample;

// Loads the weights of a model with fewer layers into `lm` (which has
// `layers`), as TrainOptions::growLayers describes: the grown model computes
// the same function as the one in `path`.
void growWeightsInto(LmImpl& lm, const std::filesystem::path& path, int layers);

// Fits `model` to a handful of examples (all of them in every step): for
// fine-tuning on a small set and for tests. Returns the last step's loss.
// With `bf16` the forward products run in bf16 (autocast), as TrainOptions::bf16.
double fitExamples(LmImpl& model, const std::vector<TrainingExample>& examples, int steps, double learningRate,
                   bool bf16 = false);

// Mean negative log-likelihood of the target tokens of `examples`.
double meanTargetNll(LmImpl& model, const std::vector<TrainingExample>& examples);

} // namespace couplet
