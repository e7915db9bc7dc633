#pragma once

#include "args.h"

#include "generation_spec.h"

#include <nlohmann/json.hpp>

#include <string>

namespace couplet::cli {

// The decoding weights --align-weight, --length-bias, --keyword-bonus and
// --backward-weight, --judge-weight, --bigram-weight; -1 where a flag is absent (the model's default), as in
// GenerationSpec. A negative value given on the command line would silently
// mean that default, so it is refused by name (UsageError).
struct DecodingWeights {
    float align = -1, lengthBias = -1, keywordBonus = -1, backward = -1, judge = -1, bigram = -1, likelihood = -1;
    bool allowTornKeywords = false; // --allow-torn-keywords
    void applyTo(GenerationSpec& spec) const;
};
enum class KeywordBonusFlag { Taken, NotTaken };
// `couplet eval --pairs/--data` writes 下联 for given 上联, where a keyword
// bonus means nothing: it does not take --keyword-bonus (NotTaken).
DecodingWeights takeDecodingWeights(Args& args, KeywordBonusFlag keywordBonus = KeywordBonusFlag::Taken);
// --year YYYY (0 when absent); throws UsageError outside 1 to kMaxYear.
int takeYear(Args& args);
// --at POS, the 嵌名 position (1 when absent); throws UsageError naming the positions.
int takeEmbedPosition(Args& args);

// --style NAME (festive, modern, verse or classical; empty when absent);
// throws UsageError for another name. Whether the model has styles is the
// model's to say (CoupletModel::validate).
std::string takeStyle(Args& args);

// --temperature, --top-k, --top-p and --repetition-penalty into `s` (what
// is not given keeps its value).
void takeSamplingOptions(Args& args, SamplingSettings& s);

// --candidates K for `count` couplets as GenerationSpec::bestOf (K x count; 0
// when absent: sampledCandidates()'s default); throws UsageError beyond
// kMaxSampledCandidates in all or for a negative K.
int takeBestOf(Args& args, int count);

// The decoding flags `couplet generate` and `couplet batch` share, into
// `spec`: --at, --length, --count, --seed, --temperature, --top-k, --top-p,
// --repetition-penalty, --greedy, --tone, --free-hengpi,
// --keywords-must-appear, --mixed-zodiac, --year, --style, --no-rerank and the weights above.
// Throws UsageError for a count below 1, a negative seed or a negative
// weight; the model checks the rest (CoupletModel::validate).
void takeDecodingOptions(Args& args, GenerationSpec& spec);
// A candidate's reranking terms, as `generate --json` and `eval --prompts --json` write them.
nlohmann::json partsJson(const ScoreParts& p);

// What --length, --count and --seed mean to a command, for its help.
struct DecodingHelp {
    std::string length, count, seed;
};
// Their lines for --help, descriptions starting at column `width`.
std::string decodingOptionsHelp(const DecodingHelp& meaning, std::size_t width);

} // namespace couplet::cli
