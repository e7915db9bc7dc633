#pragma once

#include "trainer.h"
#include "training_data.h"

#include <torch/torch.h>

#include <filesystem>
#include <iosfwd>
#include <map>
#include <string>

namespace couplet {

// Where a model folder keeps the style lexicon it was trained with.
inline constexpr const char* kStyleFile = "styles.txt";

// Sets a run's vocabulary and config up for style tokens (TrainOptions::
// styleLexicon): the tokens appended, the lexicon kept in outDir. A run from
// weights that have styles already keeps their lexicon. Throws naming a bad
// lexicon before anything is written.
void takeStyles(const TrainOptions& o, Vocab& vocab, ModelConfig& config);

// Labels `data` by the lexicon of the model in modelDir when `vocab` has
// style tokens (nothing otherwise); says how many pairs are festive on `log`.
void labelDataStyles(TrainingData& data, const Vocab& vocab, const std::filesystem::path& modelDir, std::ostream* log);

// The training data of dataDir with the style labels of the model in
// modelDir (its styles.txt; without one every modern pair stays modern).
TrainingData loadLabelledData(const std::filesystem::path& dataDir, const std::filesystem::path& modelDir);

// The token embedding (tied to the output) of weights trained without the
// style tokens, grown to `vocabSize` rows: the new rows are the mean row, so
// that the model reads a style token as an average token and starts as
// nearly the function it was.
void widenEmbedding(std::map<std::string, torch::Tensor>& tensors, int vocabSize);

} // namespace couplet
