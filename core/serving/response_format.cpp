#include "response_format.h"

#include "api_error.h"
#include "embed_position.h"
#include "line_shape.h"
#include "utf8.h"

#include <chrono>
#include <random>

namespace couplet {
namespace {

using json = nlohmann::json;

std::string randomId(const char* prefix)
{
    static thread_local std::mt19937_64 random{std::random_device{}()};
    static constexpr char kHex[] = "0123456789abcdef";
    std::string id = prefix;
    for (int i = 0; i < 24; ++i) id += kHex[random() % 16];
    return id;
}

const char* modeName(PromptMode mode)
{
    switch (mode) {
    case PromptMode::Upper: return "upper";
    case PromptMode::Acrostic: return "acrostic";
    case PromptMode::Keywords: break;
    }
    return "keywords";
}

std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

} // namespace

ResponseFormat::ResponseFormat(const CompletionRequest& request, std::string modelId)
    : m_request(request), m_chat(request.endpoint == Endpoint::Chat), m_model(std::move(modelId)),
      m_id(randomId(m_chat ? "chatcmpl-" : "cmpl-")),
      m_created(std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count())
{
}

json ResponseFormat::understood(const PromptItem& item, int n)
{
    const GenerationSpec& s = item.parsed.spec;
    json keywords = json::array();
    for (const auto& k : item.parsed.keywords) keywords.push_back(k);
    json out = {{"mode", modeName(s.mode)}, {"keywords", keywords}, {"upper", s.upper}, {"acrostic", s.acrostic},
                {"length", s.mode == PromptMode::Upper ? countCharacters(utf8::decode(s.upper)) : s.length}, {"hengpi", s.hengpi}, {"candidates", n},
                {"source", item.source}, {"ignored", item.parsed.ignored}, {"notes", item.parsed.notes}};
    if (s.year > 0) out["year"] = s.year;
    if (s.mode == PromptMode::Acrostic) {
        out["embed_at"] = s.embedAt == kEmbedLast ? json("last") : json(s.embedAt);
        out["embed_position"] = embedPositionShortName(s.embedAt);
    }
    if (!s.style.empty()) out["style"] = s.style;
    return out;
}

json ResponseFormat::understood() const
{
    json out = json::array();
    for (const auto& item : m_request.prompts) out.push_back(understood(item, m_request.n));
    return out;
}

json ResponseFormat::usage(const std::vector<ChoiceOutcome>& choices) const
{
    long long prompt = 0, completion = 0;
    for (const auto& c : choices) {
        prompt += c.promptTokens;
        completion += c.completionTokens;
    }
    return {{"prompt_tokens", prompt}, {"completion_tokens", completion}, {"total_tokens", prompt + completion}};
}

std::string ResponseFormat::completion(const std::vector<ChoiceOutcome>& choices) const
{
    json list = json::array();
    for (const auto& c : choices) {
        if (m_chat)
            list.push_back({{"index", c.index}, {"message", {{"role", "assistant"}, {"content", c.text}}},
                            {"logprobs", nullptr}, {"finish_reason", c.finishReason}});
        else
            list.push_back({{"index", c.index}, {"text", c.text}, {"logprobs", nullptr}, {"finish_reason", c.finishReason}});
    }
    return dumped({{"id", m_id}, {"object", m_chat ? "chat.completion" : "text_completion"}, {"created", m_created},
                   {"model", m_model}, {"choices", list}, {"usage", usage(choices)}, {"understood", understood()}});
}

std::string ResponseFormat::event(json choices)
{
    json chunk{{"id", m_id}, {"object", m_chat ? "chat.completion.chunk" : "text_completion"}, {"created", m_created},
               {"model", m_model}, {"choices", std::move(choices)}};
    if (!m_sentUnderstood) chunk["understood"] = understood();
    m_sentUnderstood = true;
    return "data: " + dumped(chunk) + "\n\n";
}

std::string ResponseFormat::openingEvents()
{
    if (!m_chat) return {};
    std::string out;
    for (int i = 0; i < m_request.sequences(); ++i)
        out += event(json::array({{{"index", i}, {"delta", {{"role", "assistant"}, {"content", ""}}}, {"finish_reason", nullptr}}}));
    return out;
}

std::string ResponseFormat::deltaEvent(int index, std::string_view text)
{
    json choice{{"index", index}, {"finish_reason", nullptr}};
    if (m_chat) choice["delta"] = {{"content", text}};
    else choice["text"] = text, choice["logprobs"] = nullptr;
    return event(json::array({choice}));
}

std::string ResponseFormat::finishEvent(int index, const std::string& reason)
{
    json choice{{"index", index}, {"finish_reason", reason}};
    if (m_chat) choice["delta"] = json::object();
    else choice["text"] = "", choice["logprobs"] = nullptr;
    return event(json::array({choice}));
}

std::string ResponseFormat::usageEvent(const std::vector<ChoiceOutcome>& choices)
{
    json chunk{{"id", m_id}, {"object", m_chat ? "chat.completion.chunk" : "text_completion"}, {"created", m_created},
               {"model", m_model}, {"choices", json::array()}, {"usage", usage(choices)}};
    return "data: " + dumped(chunk) + "\n\n";
}

std::string ResponseFormat::errorEvent(const ApiError& error)
{
    return "data: " + error.body() + "\n\n";
}

} // namespace couplet
