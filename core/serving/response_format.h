#pragma once

#include "completion_request.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace couplet {

class ApiError;

// One finished choice: index = prompt index x n + candidate, as OpenAI numbers them.
struct ChoiceOutcome {
    int index = 0;
    std::string text;                 // 上联：…\n下联：…\n横批：…
    std::string finishReason = "stop"; // "stop", or "length" when max_tokens cut it short
    int promptTokens = 0;
    int completionTokens = 0;
};

// The OpenAI-shaped bodies for one request: a text_completion or
// chat.completion object, or its stream of chunks as server-sent events
// ("data: {...}\n\n", then "data: [DONE]\n\n"). Each carries the extension
// field "understood": what the server made of every prompt.
class ResponseFormat {
public:
    ResponseFormat(const CompletionRequest& request, std::string modelId);

    std::string completion(const std::vector<ChoiceOutcome>& choices) const;
    // Chat streams open each choice with a {"role": "assistant"} delta; empty for completions.
    std::string openingEvents();
    std::string deltaEvent(int index, std::string_view text);
    std::string finishEvent(int index, const std::string& reason);
    std::string usageEvent(const std::vector<ChoiceOutcome>& choices);
    static std::string errorEvent(const ApiError& error);
    static std::string doneEvent() { return "data: [DONE]\n\n"; }

    nlohmann::json understood() const;
    static nlohmann::json understood(const PromptItem& item, int n);
    const std::string& id() const { return m_id; }

private:
    std::string event(nlohmann::json choices);
    nlohmann::json usage(const std::vector<ChoiceOutcome>& choices) const;

    const CompletionRequest& m_request;
    bool m_chat;
    std::string m_model;
    std::string m_id;
    long long m_created;
    bool m_sentUnderstood = false;
};

} // namespace couplet
