#pragma once

#include "vocab.h"

#include <memory>
#include <vector>

namespace couplet {

// The characters of a vocabulary that a Simplified couplet should not hold:
// Traditional forms (門, 鳳, 東) and variant forms (髪, 鳯), found with
// OpenCC's tables, so that a model that learnt them from mixed training text
// does not write them into a Simplified line (a designer rejects 髪 for 发,
// and the poster's font may lack it). A character counts when
//  - OpenCC's Traditional-to-Simplified table changes it and does not also
//    keep it (乾 stays: t2s gives 干 or 乾, as in 乾坤), or
//  - it is a Japanese form OpenCC maps to a standard one (髪 -> 髮), or one
//    of the few variants OpenCC has no entry for (鳯, a form of 鳳),
// and it is neither a Simplified character to OpenCC (国, though Japanese
// writes it too) nor one of GB 2312's (予, which OpenCC's Japanese table maps
// to 豫). In the shipped model's 7,200 characters that is about 60. Throws ScriptError when OpenCC's tables are missing.
// The vocabulary's token ids, sorted; computed once per vocabulary (by its
// contents) and kept for the process, so asking again per request is cheap.
std::shared_ptr<const std::vector<int>> nonSimplifiedTokens(const Vocab& vocab);

// The same test for one character.
bool isNonSimplified(char32_t c);

} // namespace couplet
