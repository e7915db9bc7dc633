#include "workload.h"

#include "couplet_model.h"

#include <array>
#include <stdexcept>
#include <string>

namespace couplet::bench {
namespace {

constexpr std::uint64_t kFirstSeed = 1000;

// Themes users type: single wishes, a year and a trade, a household.
const std::array<const char*, 16> kKeywords = {
    "五福", "龙年 生意", "春风", "家和 万事兴", "平安", "财源 广进", "新春 大吉", "花开 富贵",
    "国泰 民安", "学业 进步", "健康 长寿", "风调 雨顺", "瑞雪", "吉祥 如意", "红梅 报春", "山河 锦绣",
};

// Given 上联 of 5, 7 and 9 characters.
const std::array<const char*, 9> kUpperLines = {
    "春来花似锦",       "瑞雪兆丰年",       "福满人间暖",
    "春回大地千山秀",   "天增岁月人增寿",   "一帆风顺年年好",
    "春风送暖千家万户", "九州日丽百花齐放", "东风化雨山山翠绿",
};

GenerationSpec base(std::uint64_t seed)
{
    GenerationSpec spec;
    spec.candidates = 1;
    spec.sampling.seed = seed;
    return spec;
}

// Keeps only specs the model accepts, so a vocabulary without some character
// shortens the prompt list rather than failing the benchmark.
std::vector<GenerationSpec> usable(const CoupletModel& model, std::vector<GenerationSpec> candidates, int count)
{
    std::vector<GenerationSpec> ok;
    for (auto& spec : candidates)
        if (model.validate(spec).empty()) ok.push_back(std::move(spec));
    if (ok.empty()) throw std::runtime_error("the model accepts none of the benchmark's prompts");
    std::vector<GenerationSpec> out;
    for (int i = 0; i < count; ++i) {
        GenerationSpec spec = ok[static_cast<std::size_t>(i) % ok.size()];
        spec.sampling.seed = kFirstSeed + static_cast<std::uint64_t>(i);
        out.push_back(std::move(spec));
    }
    return out;
}

} // namespace

std::vector<GenerationSpec> Workload::uniform(const CoupletModel& model, int count)
{
    std::vector<GenerationSpec> specs;
    for (const char* words : kKeywords) {
        GenerationSpec spec = base(kFirstSeed);
        spec.keywords = words;
        spec.length = 7;
        specs.push_back(std::move(spec));
    }
    return usable(model, std::move(specs), count);
}

std::vector<GenerationSpec> Workload::mixed(const CoupletModel& model, int count)
{
    static constexpr std::array<int, 4> kLengths = {5, 7, 9, 0};
    std::vector<GenerationSpec> specs;
    for (std::size_t i = 0; i < kKeywords.size(); ++i) {
        GenerationSpec spec = base(kFirstSeed);
        spec.keywords = kKeywords[i];
        spec.length = kLengths[i % kLengths.size()];
        specs.push_back(std::move(spec));
        // Interleave given 上联 so that prompt lengths differ within a batch too.
        if (i < kUpperLines.size()) {
            GenerationSpec upper = base(kFirstSeed);
            upper.mode = PromptMode::Upper;
            upper.upper = kUpperLines[i];
            upper.length = 0;
            specs.push_back(std::move(upper));
        }
    }
    return usable(model, std::move(specs), count);
}

GenerationSpec Workload::interactive(const CoupletModel& model, int index)
{
    auto specs = uniform(model, index + 1);
    return specs.back();
}

} // namespace couplet::bench
