#pragma once

#include "trainer.h"
#include "example_index.h"
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

// Sets a run's vocabulary and config up for theme examples
// (TrainOptions::exampleThemes): <ex> appended, the lexicon kept in outDir as
// themes.tsv. A run from weights with <ex> keeps their themes.tsv.
void takeExamples(const TrainOptions& o, Vocab& vocab, ModelConfig& config);

// The theme examples a model with <ex> ships (examples.tsv): up to perTheme
// couplets of each theme of `lexicon` (and perTheme with none) from the
// modern training split only, lines of at most 12 characters, drawn by `seed`.
ExampleIndex buildExampleIndex(const TrainingData& data, const ThemeLexicon& lexicon, std::size_t perTheme,
                               std::uint64_t seed);

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
