#pragma once

#include "decoder.h"
#include "device_options.h"
#include "generation_spec.h"
#include "token_policy.h"

#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace couplet {

// A model folder that cannot be used: which file, and what is wrong with it.
class ModelLoadError : public std::runtime_error {
public:
    ModelLoadError(std::filesystem::path path, const std::string& reason);
    const std::filesystem::path& path() const { return m_path; }
    const std::string& reason() const { return m_reason; }

private:
    std::filesystem::path m_path;
    std::string m_reason;
};

class AlignTable;
class CoupletJudge;
class CoupletModelImpl;
struct JudgeTables;

// The weights 藏头 prompts run on instead of model.safetensors', where a model
// folder has them: some or all of its tensors, the others shared.
inline constexpr const char* kAcrosticWeightsFile = "acrostic.safetensors";
class ToneTable;
class Vocab;

// The trained couplet model with its vocabulary, tone table and 横批 phrase
// list: turns a GenerationSpec into per-sequence TokenPolicies and provides
// the Decoder that the Scheduler runs. Immutable once loaded; share freely.
class CoupletModel {
public:
    // Loads config.json, vocab.txt, model.safetensors (and tones.tsv,
    // hengpi.txt, align.tsv, words.tsv, themes.tsv, judge.bin,
    // acrostic.safetensors when present)
    // from `dir`. Throws ModelLoadError.
    static std::shared_ptr<const CoupletModel> load(const std::filesystem::path& dir,
                                                    const DeviceOptions& options = {});
    // $COUPLET_MODEL_DIR, else the installed model, else the source tree's.
    static std::filesystem::path defaultModelDir();

    ~CoupletModel();

    // Empty when the spec can be generated, else what is wrong with it
    // (e.g. "上联 contains characters the model does not know: ①").
    std::string validate(const GenerationSpec& spec) const;
    // The policy for candidate `index` of the spec, seeded candidateSeed(seed,
    // index) (candidate 0 keeps the spec's seed; 0 = random). Throws
    // std::invalid_argument for a spec validate() refuses.
    std::unique_ptr<TokenPolicy> makePolicy(const GenerationSpec& spec, int index = 0) const;
    // The theme example makePolicy(spec, index) puts before the prompt as
    // "上联<TAB>下联" (example_index.h); empty when it puts none (a model
    // without <ex> or examples.tsv, spec.themeExample off, nothing related).
    std::string themeExample(const GenerationSpec& spec, int index = 0) const;
    // The couplet written so far by a policy from makePolicy().
    static Couplet coupletOf(const TokenPolicy& policy);
    // Scores finished candidates of `spec` with CoupletScorer (this model's
    // tones and 对仗 table, the spec's keywords, and each couplet read
    // backwards) and sorts them best first.
    void rerank(const GenerationSpec& spec, std::vector<Couplet>& candidates) const;
    // Each couplet read backwards: the mean log-probability of its 上联's
    // characters as the answer to its 下联 (the lines swapped in the prompt
    // <bos> <lenN> <up> 下联 <down>), by a decoder of this model kept for
    // scoring. 0 for a couplet whose lines are empty or of unequal length.
    std::vector<double> backwardLogProbs(const std::vector<Couplet>& couplets) const;
    // A decoder over this model's weights on its device (no rows reserved yet):
    // with acrostic.safetensors, a RoutedDecoder that runs 藏头 prompts on those weights.
    std::unique_ptr<Decoder> makeDecoder() const;
    // Whether the folder has acrostic.safetensors: 藏头 couplets are written by weights of their own.
    bool hasAcrosticWeights() const;

    std::string deviceName() const;   // "cpu (2 threads, fp32, OpenBLAS 0.3.21 (openmp))", "cuda:0 (fp16)"
    std::string summary() const;      // parameters, layers, vocabulary, folder
    const Vocab& vocab() const;
    const ToneTable& tones() const;
    const AlignTable* align() const;  // the 对仗 table (align.tsv), null when the folder has none
    const CoupletJudge* judge() const; // the learned judge (judge.bin), null when the folder has none
    JudgeTables judgeTables() const;   // the tables the judge's features read (this model's)
    const std::filesystem::path& dir() const; // the folder it was loaded from (its styles.txt, for eval)

private:
    // The internals, for the model's own layer, its tests and the roofline
    // benchmark (couplet_model_impl.h).
    friend const CoupletModelImpl& implOf(const CoupletModel& model);

    explicit CoupletModel(std::unique_ptr<CoupletModelImpl> impl);
    std::unique_ptr<CoupletModelImpl> m_impl;
    // The scoring decoder of backwardLogProbs(), made at its first use; one
    // caller at a time (the model itself stays shareable).
    mutable std::mutex m_scoringMutex;
    mutable std::unique_ptr<Decoder> m_scoring;
};

} // namespace couplet
