#pragma once

#include <cstdint>
#include <string>

namespace couplet {

enum class PromptMode { Keywords, Upper, Acrostic };

struct SamplingSettings {
    float temperature = 0.8f;
    int topK = 40;               // 0 = off
    float topP = 0.95f;          // 1 = off
    float repetitionPenalty = 1.1f;
    std::uint64_t seed = 0;      // 0 = pick one at random
    bool greedy = false;         // argmax, ignores the above
};

// Everything a user can ask of one couplet prompt.
struct GenerationSpec {
    PromptMode mode = PromptMode::Keywords;
    std::string keywords;        // e.g. "五福" or "龙年 生意" (space or comma separated)
    std::string upper;           // given 上联 (PromptMode::Upper)
    std::string acrostic;        // 藏头: first characters of 上联 and 下联
    int length = 7;              // characters per line; 0 = free
    std::string hengpi;          // fixed 横批 (four Han characters), empty = the model picks
    bool tonePattern = false;    // 上联 ends on 仄, 下联 on 平
    bool freeHengpi = false;     // 横批 generated freely instead of from the phrase list
    int candidates = 1;
    SamplingSettings sampling;
};

struct Couplet {
    std::string upper;
    std::string lower;
    std::string hengpi;
    double score = 0;            // mean log-probability per generated token
    std::uint64_t seed = 0;
};

} // namespace couplet
