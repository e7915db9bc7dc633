#pragma once

#include <string_view>

namespace couplet {

// The twelve year animals (生肖) in the order of the cycle, 鼠 first.
inline constexpr std::u32string_view kZodiacAnimals = U"鼠牛虎兔龙蛇马羊猴鸡狗猪";

// The animal's place in the cycle (0 = 鼠 ... 11 = 猪), or -1. 犬 is 狗 (玉犬迎春).
constexpr int zodiacIndex(char32_t c)
{
    if (c == U'犬') return 10;
    const auto at = kZodiacAnimals.find(c);
    return at == std::u32string_view::npos ? -1 : static_cast<int>(at);
}

// The animal of a lunar year (2027 羊, 2024 龙), 0-11; the Spring Festival opens it.
constexpr int zodiacOfYear(int year) { return ((year - 4) % 12 + 12) % 12; }

// The highest year a GenerationSpec may name.
inline constexpr int kMaxYear = 9999;

// The first year animal of `text`, or -1.
constexpr int firstZodiac(std::u32string_view text)
{
    for (char32_t c : text)
        if (const int z = zodiacIndex(c); z >= 0) return z;
    return -1;
}

// The one year animal `text` names: -1 = none, 0-11, kManyZodiac = two or more
// different ones (龙马精神).
inline constexpr int kManyZodiac = 12;
constexpr int zodiacOf(std::u32string_view text)
{
    int found = -1;
    for (char32_t c : text) {
        const int z = zodiacIndex(c);
        if (z < 0 || z == found) continue;
        if (found >= 0) return kManyZodiac;
        found = z;
    }
    return found;
}

} // namespace couplet
