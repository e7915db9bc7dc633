#pragma once

#include <optional>
#include <string_view>

namespace couplet {

// The characters a couplet is given in. The model writes Simplified; the
// others are converted from it after the candidates are chosen, by phrase
// (OpenCC; core/script): Traditional s2t, Taiwan s2tw (Taiwan's standard
// forms: 這裡, 臺), TaiwanPhrases s2twp (and Taiwan's modern words: 鼠标 ->
// 滑鼠; it also turns the 横批 万象更新 into 永珍更新, Vientiane, so Taiwan
// is the default for Taiwan), HongKong s2hk.
enum class OutputScript { Simplified, Traditional, Taiwan, HongKong, TaiwanPhrases };

// "simplified", "traditional", "taiwan", "taiwan-phrases", "hongkong" (also
// "hk", "tw", "s2t", "s2tw", "s2twp", "s2hk", 简体, 繁体, 台湾, 香港, ...);
// empty when none.
std::optional<OutputScript> parseOutputScript(std::string_view text);
// "simplified", "traditional", "taiwan", "taiwan-phrases", "hongkong".
std::string_view outputScriptName(OutputScript script);
// "simplified, traditional, taiwan, taiwan-phrases or hongkong", for messages.
std::string_view outputScriptChoices();

} // namespace couplet
