#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace couplet {

// Occasions with 横批 of their own (hengpi.txt's fourth column), as bits: a
// couplet may be for two (开业 of a clinic). 0 = an ordinary spring couplet.
enum Occasion : unsigned {
    kOccasionWedding = 1u << 0,    // 新婚
    kOccasionBusiness = 1u << 1,   // 开业, 生意
    kOccasionMoving = 1u << 2,     // 乔迁
    kOccasionHealth = 1u << 3,     // 医院, 康复, 仁心
    kOccasionSchool = 1u << 4,     // 教师, 学校, 升学
    kOccasionFarming = 1u << 5,    // 农家
    kOccasionTechnology = 1u << 6, // 科技
};
inline constexpr int kOccasionCount = 7;
// On a 横批 with occasion bits: it suits any couplet too (五谷丰登 over a
// farmhouse's door and every other), preferred for its occasions. hengpi.txt: "any".
inline constexpr unsigned kOccasionShared = 1u << kOccasionCount;

// Whether a phrase with occasion bits `phrase` may stand on a couplet for the
// occasions `prompt`: one for any couplet (0 or kOccasionShared), or one of its own.
constexpr bool fitsOccasions(unsigned phrase, unsigned prompt)
{
    return phrase == 0 || (phrase & kOccasionShared) != 0 || (phrase & prompt) != 0;
}

// The occasions a prompt (keywords, a given 上联, 藏头) speaks of, by cue
// words (婚, 开业, 乔迁, 医, 教, 农, 科技 ...).
unsigned occasionsOf(std::u32string_view prompt);

// hengpi.txt's name of one occasion bit ("wedding", kOccasionShared "any")
// and back; nullopt for an unknown name.
std::string_view occasionName(unsigned bit);
std::optional<unsigned> occasionNamed(std::string_view name);

} // namespace couplet
