#pragma once

#include "args.h"

#include "generation_spec.h"

#include <string>

namespace couplet::cli {

// The decoding flags `couplet generate` and `couplet batch` share, into
// `spec`: --length, --count, --seed, --temperature, --top-k, --top-p,
// --repetition-penalty, --greedy, --tone, --free-hengpi,
// --keywords-must-appear, --mixed-zodiac, --no-rerank, --align-weight,
// --length-bias, --keyword-bonus. Throws UsageError for a count below 1 or
// a negative seed; the model checks the rest (CoupletModel::validate).
void takeDecodingOptions(Args& args, GenerationSpec& spec);
// What --length, --count and --seed mean to a command, for its help.
struct DecodingHelp {
    std::string length, count, seed;
};
// Their lines for --help, descriptions starting at column `width`.
std::string decodingOptionsHelp(const DecodingHelp& meaning, std::size_t width);

} // namespace couplet::cli
