#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace couplet {

// Where a prompt names the 嵌名 position: 燕颔格 (or 燕颔), 嵌于第二字, 末字 ...
struct EmbedPhrase {
    int at = 1;             // embed_position.h: 1-6 or kEmbedLast
    std::size_t from = 0;   // the phrase in the prompt, with a 在/于 before it
    std::size_t to = 0;
};

// The first position phrase in `s` (a normalised prompt). 第N字 and 末字 count
// only in a prompt that embeds (嵌 or 藏), where they cannot be a length.
std::optional<EmbedPhrase> findEmbedPhrase(const std::u32string& s);

} // namespace couplet
