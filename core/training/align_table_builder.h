#pragma once

#include "align_table.h"
#include "bigram_table.h"
#include "training_data.h"

#include <filesystem>

namespace couplet {

// Counts the aligned characters of every training pair of `data` (the
// training split only: validation pairs never reach the table) and prunes the
// counts as `options` say.
AlignTable buildAlignTable(const TrainingData& data, const AlignTable::BuildOptions& options);

// Counts the adjacent characters of both lines of every training pair of
// `data` (the training split only), keeping pairs seen minCount times or more.
BigramTable buildBigramTable(const TrainingData& data, std::uint32_t minCount, double weight);

} // namespace couplet
