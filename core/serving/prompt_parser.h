#pragma once

#include "generation_spec.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace couplet {

// A prompt that cannot become a couplet request: `what` says why.
struct PromptError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What a sentence such as 生成一副关于家庭和睦、喜迎新春的七言春联，横批阖家欢乐
// asks for, and what of it was not used.
struct ParsedPrompt {
    GenerationSpec spec;                 // keywords joined by spaces
    std::vector<std::string> keywords;   // the theme, one entry per keyword
    std::vector<std::string> ignored;    // framing and other text that was not used
    std::vector<std::string> notes;      // how something was interpreted (e.g. 嵌字 as 藏头)
};

// Reads Chinese prompts as people write them: 五言/七言/九言 or N字, 关于… /
// 以…为主题 / 主题是… with keywords separated by 、，和与及, 上联：…, 藏头 or 嵌字 with
// its characters, 横批…, and the usual framing (生成、写、一副、春联、适合贴在…).
// When nothing but framing is left, the remaining Han characters are the
// theme. Throws PromptError when no theme, 上联 or 藏头 can be found.
class PromptParser {
public:
    static ParsedPrompt parse(std::string_view prompt);
};

} // namespace couplet
