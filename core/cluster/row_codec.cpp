#include "row_codec.h"

#include <nlohmann/json.hpp>

#include <charconv>

namespace couplet::cluster {
namespace {

using nlohmann::json;

const char* modeName(PromptMode mode)
{
    switch (mode) {
    case PromptMode::Keywords: return "keywords";
    case PromptMode::Upper: return "upper";
    case PromptMode::Acrostic: return "acrostic";
    }
    return "keywords";
}

PromptMode modeFromName(const std::string& name)
{
    if (name == "keywords") return PromptMode::Keywords;
    if (name == "upper") return PromptMode::Upper;
    if (name == "acrostic") return PromptMode::Acrostic;
    throw std::invalid_argument("unknown prompt mode '" + name + "'");
}

std::uint64_t toUnsigned(const StreamEntry& entry, const std::string& name)
{
    const std::string& text = entry.field(name);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw RedisError(entry.stream + " entry " + entry.id + ": field '" + name + "' is not a number: '" + text + "'");
    return value;
}

double toDouble(const StreamEntry& entry, const std::string& name)
{
    try {
        return std::stod(entry.field(name));
    } catch (const std::logic_error&) {
        throw RedisError(entry.stream + " entry " + entry.id + ": field '" + name + "' is not a number");
    }
}

} // namespace

std::string specToJson(const GenerationSpec& spec)
{
    const SamplingSettings& s = spec.sampling;
    const json j{{"mode", modeName(spec.mode)}, {"keywords", spec.keywords}, {"upper", spec.upper},
                 {"acrostic", spec.acrostic}, {"embed_at", spec.embedAt}, {"script", outputScriptName(spec.script)}, {"length", spec.length}, {"hengpi", spec.hengpi},
                 {"tone", spec.tonePattern}, {"free_hengpi", spec.freeHengpi},
                 {"keywords_must_appear", spec.keywordsMustAppear}, {"mixed_zodiac", spec.mixedZodiac}, {"year", spec.year},
                 {"style", spec.style},
                 {"candidates", spec.candidates}, {"temperature", s.temperature}, {"top_k", s.topK},
                 {"top_p", s.topP}, {"repetition_penalty", s.repetitionPenalty}, {"seed", s.seed},
                 {"greedy", s.greedy}, {"rerank", spec.rerank}, {"align_weight", spec.alignWeight},
                 {"length_bias", spec.lengthBias}, {"keyword_bonus", spec.keywordBonus},
                 {"backward_weight", spec.backwardWeight}, {"best_of", spec.bestOf},
                 {"judge_weight", spec.judgeWeight}, {"likelihood_weight", spec.likelihoodWeight}, {"bigram_weight", spec.bigramWeight},
                 {"whole_keywords", spec.wholeKeywords}};
    return j.dump();
}

GenerationSpec specFromJson(const std::string& text)
{
    try {
        const json j = json::parse(text);
        GenerationSpec spec;
        spec.mode = modeFromName(j.at("mode").get<std::string>());
        spec.keywords = j.at("keywords").get<std::string>();
        spec.upper = j.at("upper").get<std::string>();
        spec.acrostic = j.at("acrostic").get<std::string>();
        spec.length = j.at("length").get<int>();
        spec.hengpi = j.at("hengpi").get<std::string>();
        spec.tonePattern = j.at("tone").get<bool>();
        spec.freeHengpi = j.at("free_hengpi").get<bool>();
        // Absent from rows queued before these options existed.
        spec.keywordsMustAppear = j.value("keywords_must_appear", false);
        spec.mixedZodiac = j.value("mixed_zodiac", false);
        spec.year = j.value("year", 0);
        spec.embedAt = j.value("embed_at", 1);
        const std::string script = j.value("script", std::string("simplified"));
        spec.script = parseOutputScript(script).value_or(OutputScript::Simplified);
        spec.style = j.value("style", std::string());
        spec.candidates = j.at("candidates").get<int>();
        SamplingSettings& s = spec.sampling;
        s.temperature = j.at("temperature").get<float>();
        s.topK = j.at("top_k").get<int>();
        s.topP = j.at("top_p").get<float>();
        s.repetitionPenalty = j.at("repetition_penalty").get<float>();
        s.seed = j.at("seed").get<std::uint64_t>();
        s.greedy = j.at("greedy").get<bool>();
        // Absent from rows queued before these options went to workers: the defaults.
        spec.rerank = j.value("rerank", spec.rerank);
        spec.alignWeight = j.value("align_weight", spec.alignWeight);
        spec.lengthBias = j.value("length_bias", spec.lengthBias);
        spec.keywordBonus = j.value("keyword_bonus", spec.keywordBonus);
        spec.backwardWeight = j.value("backward_weight", spec.backwardWeight);
        spec.bestOf = j.value("best_of", spec.bestOf);
        spec.judgeWeight = j.value("judge_weight", spec.judgeWeight);
        spec.likelihoodWeight = j.value("likelihood_weight", spec.likelihoodWeight);
        spec.bigramWeight = j.value("bigram_weight", spec.bigramWeight);
        spec.wholeKeywords = j.value("whole_keywords", spec.wholeKeywords);
        return spec;
    } catch (const json::exception& e) {
        throw std::invalid_argument(std::string("row spec is not valid: ") + e.what());
    }
}

std::vector<std::string> resultFields(const RowMessage& m)
{
    const RowResult& r = m.result;
    return {"row", std::to_string(m.row), "status", std::string(rowStatusName(r.status)),
            "upper", r.couplet.upper, "lower", r.couplet.lower, "hengpi", r.couplet.hengpi,
            "score", std::to_string(r.couplet.score), "seed", std::to_string(r.couplet.seed),
            "error", r.error, "model", r.model, "latency_ms", std::to_string(r.latencyMs),
            "worker", m.worker};
}

std::uint64_t rowOf(const StreamEntry& entry)
{
    return toUnsigned(entry, "row");
}

RowMessage resultFromEntry(const StreamEntry& entry)
{
    RowMessage m;
    m.row = rowOf(entry);
    m.result.status = rowStatusFromName(entry.field("status"));
    m.result.couplet.upper = entry.field("upper");
    m.result.couplet.lower = entry.field("lower");
    m.result.couplet.hengpi = entry.field("hengpi");
    m.result.couplet.score = toDouble(entry, "score");
    m.result.couplet.seed = toUnsigned(entry, "seed");
    m.result.error = entry.field("error");
    m.result.model = entry.field("model");
    m.result.latencyMs = toDouble(entry, "latency_ms");
    m.worker = entry.field("worker");
    return m;
}

} // namespace couplet::cluster
