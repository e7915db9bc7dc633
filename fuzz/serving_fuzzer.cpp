// Feeds arbitrary bytes to what `couplet serve` reads from clients: the
// request body parser (JSON, field checks, the couplet object) and the
// Chinese prompt parser. Besides crashes and sanitizer reports it checks
// properties: refusals are 400 or 413 with an OpenAI error object that is
// itself valid JSON, and accepted requests can be formatted back.

#include "api_error.h"
#include "completion_request.h"
#include "prompt_parser.h"
#include "response_format.h"
#include "utf8.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

void require(bool condition)
{
    if (!condition) std::abort();
}

void checkRequest(const std::string& body, couplet::Endpoint endpoint)
{
    try {
        const auto request = couplet::CompletionRequestParser::parse(body, endpoint);
        require(!request.prompts.empty() && request.n >= 1 && request.sequences() <= couplet::kMaxSequences);
        couplet::ResponseFormat format(request, "fuzz");
        require(nlohmann::json::parse(format.completion({})).is_object());
    } catch (const couplet::ApiError& e) {
        require(e.status() == 400 || e.status() == 413);
        require(nlohmann::json::parse(e.body()).contains("error"));
    }
}

void checkPrompt(const std::string& text)
{
    try {
        const auto parsed = couplet::PromptParser::parse(text);
        for (const auto& k : parsed.keywords) require(!k.empty() && couplet::utf8::firstInvalid(k) == std::string::npos);
        require(couplet::utf8::firstInvalid(parsed.spec.upper) == std::string::npos);
        require(couplet::utf8::firstInvalid(parsed.spec.acrostic) == std::string::npos);
        require(couplet::utf8::length(parsed.spec.acrostic) <= 2);
        require(parsed.spec.mode == couplet::PromptMode::Upper || !parsed.spec.keywords.empty() || !parsed.spec.acrostic.empty());
    } catch (const couplet::PromptError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0) return 0;
    const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    // The first byte picks what the rest is: a completions body, a chat body, or a prompt.
    switch (data[0] % 3) {
    case 0: checkRequest(bytes, couplet::Endpoint::Completions); break;
    case 1: checkRequest(bytes, couplet::Endpoint::Chat); break;
    default: checkPrompt(bytes); break;
    }
    return 0;
}
