#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace couplet {

// The register a couplet is written in. A model trained with style tokens
// (`couplet train --styles`) reads one after <bos>: the festive modern couplets
// (a spring-festival lexicon's matches), the other modern ones, Tang/Song
// verse, the classical primers. Asking for the festive one keeps the verse's
// autumn and recluses off a door while the verse still teaches 对仗.
enum class WritingStyle { Festive, Modern, Verse, Classical };

inline constexpr std::array<WritingStyle, 4> kWritingStyles = {WritingStyle::Festive, WritingStyle::Modern,
                                                               WritingStyle::Verse, WritingStyle::Classical};

// "festive", "modern", "verse", "classical".
std::string_view styleName(WritingStyle style);
// The vocabulary token: "<festive>" ...
std::string styleTokenName(WritingStyle style);
// The style of a name as styleName() writes it; empty for anything else.
std::optional<WritingStyle> parseStyle(std::string_view name);
// "festive, modern, verse or classical": for messages.
std::string styleNames();

} // namespace couplet
