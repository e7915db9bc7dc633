#pragma once

#include "align_table.h"
#include "bigram_table.h"
#include "whole_keywords.h"
#include "example_index.h"
#include "couplet_constraints.h"
#include "couplet_judge.h"
#include "hengpi_list.h"
#include "model_config.h"
#include "native_decoder.h"
#include "theme_lexicon.h"
#include "tone_table.h"
#include "transformer.h"
#include "vocab.h"
#include "word_table.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>

namespace couplet {

// What a loaded model folder holds, shared by the model's policies and
// decoders. Read-only after loading.
class CoupletModelImpl {
public:
    std::filesystem::path dir;
    ModelConfig config;
    Vocab vocab;
    ToneTable tones;
    HengpiList hengpi;
    std::unique_ptr<TokenClasses> classes;
    PhraseTrie hengpiTrie;
    std::unique_ptr<AlignTable> align; // align.tsv when the folder has one
    WordTable words;                   // words.tsv (reranking's word terms); empty without one
    // bigrams.tsv when the folder has one (with words.tsv's two-character
    // words): the characters that follow each other in real lines.
    std::unique_ptr<BigramTable> bigrams;
    WholeKeywords wholeKeywords;       // built from words.tsv; empty without one
    ThemeLexicon themes;               // themes.tsv (reranking's theme term); empty without one
    // examples.tsv, for a model with <ex> (Vocab::exampleToken): the theme
    // examples read before the prompt. Empty otherwise.
    ExampleIndex examples;
    std::unique_ptr<CoupletJudge> judge; // judge.bin (reranking's judge term); null without one
    // The Han characters that end lines more often than they stand anywhere
    // (AlignTable::closing > 0) with that score, for the length bias: a few
    // hundred of the 7,000, so that a step does not look at every one.
    std::vector<std::pair<int, float>> closers;
    Lm lm{nullptr};
    torch::Device device{torch::kCPU};
    torch::ScalarType dtype = torch::kFloat32;
    std::int64_t parameters = 0;
    // CPU only: the native decoder's precision; empty = libtorch's ops.
    std::optional<NativePrecision> native;
    WeightMap weights;                 // fp32 copies for the native decoder
    // acrostic.safetensors, when the folder has one: the tensors 藏头 prompts
    // (those with <acrostic>) run on instead of model.safetensors' (the rest
    // shared with it; RoutedDecoder). Null / empty without one.
    Lm acrosticLm{nullptr};
    WeightMap acrosticWeights;
};

class CoupletModel;

// A loaded model's internals (weights, device, precision).
const CoupletModelImpl& implOf(const CoupletModel& model);

// Loads the weights of `path` into `lm`, checking every name and shape.
// Throws std::runtime_error naming the file and the tensor.
void loadWeightsInto(LmImpl& lm, const std::filesystem::path& path);
// The same for tensors already read (`source` names them in messages).
void loadWeightsInto(LmImpl& lm, std::map<std::string, torch::Tensor> tensors, const std::filesystem::path& source);

// Copies the tensors of `tensors` over the same-named weights of `lm`, which
// keeps the others (acrostic.safetensors over model.safetensors). Throws
// std::runtime_error naming `source` and the tensor for an unknown name or shape.
void overrideWeights(LmImpl& lm, std::map<std::string, torch::Tensor> tensors, const std::filesystem::path& source);

// The weights of `lm` as fp32 copies on the CPU, by name: what NativeDecoder packs.
WeightMap nativeWeightsOf(LmImpl& lm);

} // namespace couplet
