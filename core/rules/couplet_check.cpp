#include "couplet_check.h"

#include "utf8.h"
#include "vocab.h"

namespace couplet {

std::vector<std::string> coupletViolations(const Couplet& c)
{
    std::vector<std::string> out;
    std::u32string up, down, hp;
    try {
        up = utf8::decode(c.upper);
        down = utf8::decode(c.lower);
        hp = utf8::decode(c.hengpi);
    } catch (const std::invalid_argument& e) {
        return {std::string("invalid UTF-8: ") + e.what()};
    }
    if (up.empty()) out.push_back("empty 上联");
    if (up.size() != down.size())
        out.push_back("lengths differ: " + std::to_string(up.size()) + " vs " + std::to_string(down.size()));
    for (std::size_t i = 0; i < up.size() && i < down.size(); ++i) {
        const bool upMark = isCoupletPunctuation(up[i]), downMark = isCoupletPunctuation(down[i]);
        if (!upMark && !utf8::isHan(up[i])) out.push_back("上联 has a non-Han character at " + std::to_string(i + 1));
        if (!downMark && !utf8::isHan(down[i])) out.push_back("下联 has a non-Han character at " + std::to_string(i + 1));
        if (upMark != downMark || (upMark && up[i] != down[i]))
            out.push_back("punctuation not mirrored at " + std::to_string(i + 1));
        if (upMark) continue;
        const auto first = up.find(up[i]);
        if (first < i && down[i] != down[first]) out.push_back("叠字 not mirrored at " + std::to_string(i + 1));
        if (first == i && up.find(down[i]) != std::u32string::npos)
            out.push_back("下联 repeats 上联's " + utf8::encode(down[i]) + " at " + std::to_string(i + 1));
    }
    if (hp.size() != 4) out.push_back("横批 has " + std::to_string(hp.size()) + " characters, not 4");
    for (char32_t ch : hp)
        if (!utf8::isHan(ch)) out.push_back("横批 has a non-Han character");
    return out;
}

} // namespace couplet
