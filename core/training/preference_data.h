#pragma once

#include "target_sequence.h"
#include "vocab.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace couplet {

// Two couplets the model wrote for one request: one that blind judges passed
// as printable and one they did not. Preference training (DPO, Rafailov et al.
// 2023, "Direct Preference Optimization") moves the model's likelihood from the
// second toward the first, measured against the starting model.
struct PreferencePair {
    TrainingExample chosen;
    TrainingExample rejected;
    std::string request;  // "mode<TAB>text<TAB>length", for messages
    bool heldOut = false; // measured, never trained on (about 1 request in 10, by hash)
};

struct PreferenceSet {
    std::vector<PreferencePair> pairs;
    std::size_t skipped = 0; // rows with a character outside the vocabulary (spaces between keywords aside)
};

// The sequence of a request and its couplet as CoupletModel::makePolicy
// prompts the model (without a theme example):
//   keywords  <bos> [<festive>] <kw> 五福 <sep> 龙年 <lenN> <up> 上联 <down> 下联 <hp>
//   acrostic  <bos> [<festive>] <ac> 春 福 <lenN> <up> ...       (text: the name of a 藏头 couplet)
//   upper     <bos> [<festive>] <lenN> <up> 上联 <down> 下联 <hp>  (text: the given 上联; length unused)
// The targets are what the model wrote: the 上联, <down> and the 下联 (only the
// 下联 when the 上联 was given). `length` counts Han characters (0 = free), as
// --length does. Throws std::invalid_argument on an unknown mode or a 上联 that
// does not match the given one.
TrainingExample requestExample(const std::string& mode, const std::string& text, int length, const std::string& upper,
                               const std::string& lower, const Vocab& vocab);

// Reads a TSV of preferences, one pair a row:
//   mode  text  length  chosen上联  chosen下联  rejected上联  rejected下联
// (lines starting with # are comments). A row whose couplets hold a character
// outside the vocabulary is skipped and counted; a malformed row throws
// std::runtime_error naming the file and line.
PreferenceSet loadPreferences(const std::filesystem::path& path, const Vocab& vocab);

} // namespace couplet
