#pragma once

// A tiny model folder for tests that need the real model code but not the
// trained weights: a small Transformer with random weights (or given ones),
// a vocabulary of about a hundred common characters, a tone table and a
// 横批 phrase list over them. Random weights write nonsense, but the couplet
// constraints are enforced by masking, so the couplets are well-formed.

#include "couplet_model_impl.h"
#include "model_config.h"
#include "trainer.h"
#include "transformer.h"
#include "utf8.h"

#include <filesystem>
#include <string>

namespace couplet::testing {

// The vocabulary's Han characters, UTF-8. Any other Han character (e.g. 龘)
// is unknown to the tiny model.
extern const char* const kTinyCharacters;

// kTinyCharacters without repeats, in order.
std::u32string tinyHanCharacters();

// Writes `pairs` random five-character 上联/下联 pairs of the tiny vocabulary's
// characters (from `seed`), tab-separated, one per line: a corpus file as
// couplets/*.tsv of a data folder holds.
void writeTinyCorpus(const std::filesystem::path& file, int pairs, unsigned seed);

// A data folder as `couplet train` reads it in `dir`: couplets/modern.tsv of
// `pairs` tiny pairs (writeTinyCorpus, seed 5) and an empty idiom list.
std::filesystem::path writeTinyDataFolder(const std::filesystem::path& dir, int pairs);

// A run of `steps` steps on the tiny data continuing `init` into `out`: batch
// 4, one warm-up step, one thread, a log line every step, no evaluation nor
// checkpoint before the end. Learning rate, seed and the rest are the caller's.
TrainOptions tinyContinuation(const std::filesystem::path& data, const std::filesystem::path& init,
                              const std::filesystem::path& out, int steps);

// A new empty folder under the temporary directory, named after `name`.
std::filesystem::path freshTempDir(const std::string& name);

// Small dimensions for a vocabulary of `vocabSize` tokens.
ModelConfig tinyConfig(int vocabSize);

// Writes config.json, vocab.txt, model.safetensors, tones.tsv and
// hengpi.txt into `dir` (created if needed) and returns `dir`. The weights
// are random from `seed`, or those of `lm` (whose config is written then).
std::filesystem::path writeTinyModel(const std::filesystem::path& dir, int seed = 1, Lm* lm = nullptr);

} // namespace couplet::testing
