#pragma once

#include "prompt_parser.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace couplet {

enum class Endpoint { Completions, Chat };

inline constexpr std::size_t kMaxBodyBytes = std::size_t{1} << 20;
inline constexpr int kMaxPrompts = 64;     // entries of a prompt array
inline constexpr int kMaxChoices = 16;     // n: candidates per prompt
inline constexpr int kMaxSequences = 256;  // prompts x n in one request

// One prompt of a request and what the server understood of it.
struct PromptItem {
    std::string text;        // as sent; empty when only a `couplet` object was given
    ParsedPrompt parsed;     // parsed.spec is what is generated (n and sampling included)
    std::string source;      // "prompt", "couplet" or "prompt+couplet"
};

// A validated POST /v1/completions or /v1/chat/completions body.
struct CompletionRequest {
    Endpoint endpoint = Endpoint::Completions;
    std::vector<PromptItem> prompts;
    int n = 1;               // choices per prompt
    int bestOf = 0;          // candidates sampled per prompt to choose them from; 0 = sampledCandidates()'s default
    int maxTokens = 0;       // generated tokens per choice, 0 = as many as the couplet needs
    bool stream = false;
    bool includeUsage = false; // stream_options.include_usage
    std::string model;
    std::string user;

    int sequences() const { return static_cast<int>(prompts.size()) * n; }
};

// Parses and checks a request body. Throws ApiError: 413 for a body over
// kMaxBodyBytes, 400 for malformed JSON (naming the byte), a field of the
// wrong type or range (naming the field) or a prompt that cannot be used
// (saying why). The model's own checks (unknown characters) come later.
class CompletionRequestParser {
public:
    static CompletionRequest parse(std::string_view body, Endpoint endpoint);
};

} // namespace couplet
