#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace couplet {

// 嵌名: where a two-character name stands, one character in each line. The
// classical positions are 鹤顶格 (1st character, the 藏头 of old), 燕颔格
// (2nd), 鸢肩格 (3rd), 蜂腰格 (4th), 鹤膝格 (5th), 凫胫格 (6th) and 雁足格
// (the last). Numbered positions must leave the line at least one character
// after the name: the 5th of a five-character line is 雁足格, not 鹤膝格.
inline constexpr int kEmbedFirst = 1;
inline constexpr int kEmbedLast = -1;      // 雁足格
inline constexpr int kEmbedMaxNumbered = 6; // 凫胫格

// "2", "２", "二", "第二字", "燕颔", "燕颔格", "yanhan", "last", "末", "雁足格" -> 2 or
// kEmbedLast; empty when the text names no position.
std::optional<int> parseEmbedPosition(std::string_view text);

// "燕颔格 (2nd character)", "雁足格 (last character)".
std::string embedPositionName(int at);
// The name alone: "燕颔格".
std::string_view embedPositionShortName(int at);

// The 0-based index of the name's character in a line of `length` characters
// (0 = free length; kEmbedLast then has none and gives -1).
int embedIndex(int at, int length);

// Why `at` does not fit a line of `length` characters (0 = free), naming the
// positions that do; empty when it fits.
std::string embedPositionProblem(int at, int length);

// The help text of the positions, one line: "1 鹤顶格, 2 燕颔格, ..., last 雁足格".
std::string embedPositionList();

} // namespace couplet
