#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace couplet {

class AlignTable;
class ToneTable;
class Vocab;
class WordTable;

// The tables a couplet's judge features read besides its characters; any
// pointer may be null (those features are then absent).
struct JudgeTables {
    const Vocab* vocab = nullptr;
    const ToneTable* tones = nullptr;
    const AlignTable* align = nullptr;
    const WordTable* words = nullptr;
};

// One couplet as the judge sees it: hashed sparse features (indices into
// the weight table, each of value 1) and a few dense ones.
struct JudgeFeatures {
    static constexpr int kDense = 6;
    std::vector<std::uint32_t> sparse;
    // 对仗 table score / 4, 平仄 share, repeated characters, loose characters
    // per character, word-by-word 对仗, melancholy characters.
    std::array<float, kDense> dense{};
};

// A learned judge of human-likeness (discriminative reranking): logistic
// regression over hashed character bigrams of each line, aligned character
// and bigram pairs of the two lines, the words and word-length patterns of
// words.tsv's split with aligned word and part-of-speech pairs, and the
// prompt-free rule terms. score() is the log-odds that a couplet was
// written by a person rather than sampled from the model; trained by
// `couplet train-judge` (core/training/judge_training.h) and shipped as the
// model folder's judge.bin.
class CoupletJudge {
public:
    static constexpr std::uint32_t kFormatVersion = 1;
    // What features() computes; a judge.bin of another feature set is refused.
    static constexpr std::uint32_t kFeatureVersion = 1;
    static constexpr int kDefaultHashBits = 19;

    CoupletJudge() = default;
    // An untrained judge (all weights 0) over 2^hashBits sparse weights.
    explicit CoupletJudge(int hashBits, std::uint64_t tablesFingerprint = 0);

    // Reads judge.bin; throws std::runtime_error naming the file and what is
    // wrong (not a judge file, another version or feature set, damaged, or
    // trained for other tables than `tablesFingerprint`, 0 = not checked).
    static CoupletJudge load(const std::filesystem::path& path, std::uint64_t tablesFingerprint = 0);
    // Writes judge.bin with its checksum; throws std::runtime_error on failure.
    void save(const std::filesystem::path& path) const;

    // The features of a couplet (lines in Han characters and couplet marks).
    JudgeFeatures features(const std::u32string& upper, const std::u32string& lower, const JudgeTables& tables) const;
    // Log-odds human vs model.
    double score(const JudgeFeatures& f) const;
    double score(const std::u32string& upper, const std::u32string& lower, const JudgeTables& tables) const;

    bool empty() const { return m_sparse.empty(); }
    int hashBits() const { return m_hashBits; }
    std::uint64_t tablesFingerprint() const { return m_fingerprint; }

    // The weights, for the trainer.
    float& bias() { return m_bias; }
    std::array<float, JudgeFeatures::kDense>& dense() { return m_dense; }
    std::vector<float>& sparse() { return m_sparse; }
    const std::vector<float>& sparse() const { return m_sparse; }

private:
    int m_hashBits = 0;
    std::uint64_t m_fingerprint = 0;
    float m_bias = 0;
    std::array<float, JudgeFeatures::kDense> m_dense{};
    std::vector<float> m_sparse;
};

// FNV-1a 64 of the files a judge's features read in a model folder
// (vocab.txt, tones.tsv, align.tsv, words.tsv, those present): a judge.bin
// records it so that one trained on other tables is refused.
std::uint64_t judgeTablesFingerprint(const std::filesystem::path& modelDir);

// Where a model folder keeps its judge.
inline constexpr const char* kJudgeFile = "judge.bin";

} // namespace couplet
