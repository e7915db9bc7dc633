#include "completion_request.h"

#include "couplet_generator.h"

#include "api_error.h"
#include "writing_style.h"
#include "embed_position.h"
#include "spring_festival.h"
#include "zodiac.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>

namespace couplet {
namespace {

using json = nlohmann::json;

[[noreturn]] void invalid(const std::string& param, const std::string& message, const std::string& code = "invalid_value")
{
    throw ApiError::invalidRequest(message, param, code);
}

[[noreturn]] void wrongType(const std::string& name, const std::string& expected, const json& v)
{
    invalid(name, "'" + name + "' must be " + expected + ", got " + v.type_name(), "invalid_type");
}

// The field, or nullptr when it is absent or null (OpenAI clients send nulls for defaults).
const json* field(const json& object, const std::string& name)
{
    const auto it = object.find(name);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string stringField(const json& object, const std::string& name, const std::string& path = {})
{
    const json* v = field(object, name);
    if (!v) return {};
    if (!v->is_string()) wrongType(path + name, "a string", *v);
    return v->get<std::string>();
}

bool boolField(const json& object, const std::string& name, bool fallback, const std::string& path = {})
{
    const json* v = field(object, name);
    if (!v) return fallback;
    if (!v->is_boolean()) wrongType(path + name, "true or false", *v);
    return v->get<bool>();
}

double numberField(const json& object, const std::string& name, double fallback, double lo, double hi)
{
    const json* v = field(object, name);
    if (!v) return fallback;
    if (!v->is_number()) wrongType(name, "a number", *v);
    const double x = v->get<double>();
    if (!(x >= lo && x <= hi))
        invalid(name, "'" + name + "' must be between " + json(lo).dump() + " and " + json(hi).dump() + ", got " + v->dump());
    return x;
}

long long integerField(const json& object, const std::string& name, long long fallback, long long lo, long long hi,
                       const std::string& path = {})
{
    const json* v = field(object, name);
    if (!v) return fallback;
    const bool whole = v->is_number_integer() || (v->is_number_float() && std::floor(v->get<double>()) == v->get<double>());
    if (!whole) wrongType(path + name, "a whole number", *v);
    const double x = v->get<double>();
    if (x < static_cast<double>(lo) || x > static_cast<double>(hi))
        invalid(path + name, "'" + path + name + "' must be between " + std::to_string(lo) + " and " + std::to_string(hi)
                                 + ", got " + v->dump());
    return v->is_number_unsigned() ? static_cast<long long>(v->get<unsigned long long>()) : v->get<long long>();
}

json parseBody(std::string_view body)
{
    if (body.size() > kMaxBodyBytes)
        throw ApiError(413, "invalid_request_error",
                       "request body is " + std::to_string(body.size()) + " bytes, at most " + std::to_string(kMaxBodyBytes)
                           + " (1 MiB)",
                       {}, "body_too_large");
    json parsed;
    try {
        parsed = json::parse(body);
    } catch (const json::parse_error& e) {
        std::string what = e.what();
        if (const auto colon = what.find("parse error"); colon != std::string::npos) what = what.substr(colon);
        invalid({}, "malformed JSON at byte " + std::to_string(e.byte) + ": " + what, "invalid_json");
    } catch (const json::exception& e) {
        // Valid syntax the parser still cannot hold, e.g. a number beyond double (1e999).
        std::string what = e.what();
        if (const auto end = what.find("] "); end != std::string::npos) what = what.substr(end + 2);
        invalid({}, "malformed JSON: " + what, "invalid_json");
    }
    if (!parsed.is_object()) invalid({}, std::string("the request body must be a JSON object, got ") + parsed.type_name(), "invalid_json");
    return parsed;
}

} // namespace

namespace {

std::vector<std::string> completionPrompts(const json& body)
{
    const json* p = field(body, "prompt");
    if (!p) return {};
    if (p->is_string()) return {p->get<std::string>()};
    if (!p->is_array()) wrongType("prompt", "a string or an array of strings", *p);
    if (p->empty()) invalid("prompt", "'prompt' is an empty array");
    if (p->size() > static_cast<std::size_t>(kMaxPrompts))
        invalid("prompt", "'prompt' has " + std::to_string(p->size()) + " entries, at most " + std::to_string(kMaxPrompts));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < p->size(); ++i) {
        const json& item = (*p)[i];
        if (!item.is_string()) wrongType("prompt[" + std::to_string(i) + "]", "a string (token arrays are not supported)", item);
        out.push_back(item.get<std::string>());
    }
    return out;
}

std::string messageText(const json& content, const std::string& path)
{
    if (content.is_string()) return content.get<std::string>();
    if (!content.is_array()) wrongType(path, "a string or an array of content parts", content);
    std::string text;
    for (const json& part : content)
        if (part.is_object() && part.value("type", "") == "text" && part.contains("text") && part["text"].is_string())
            text += part["text"].get<std::string>();
    return text;
}

// The chat request is its last user message.
std::vector<std::string> chatPrompt(const json& body)
{
    const json* m = field(body, "messages");
    if (!m) invalid("messages", "'messages' is required", "missing_field");
    if (!m->is_array()) wrongType("messages", "an array of messages", *m);
    for (std::size_t i = m->size(); i-- > 0;) {
        const json& message = (*m)[i];
        const std::string path = "messages[" + std::to_string(i) + "]";
        if (!message.is_object()) wrongType(path, "an object", message);
        if (stringField(message, "role", path + ".") != "user") continue;
        const json* content = field(message, "content");
        if (!content) invalid(path + ".content", "'" + path + ".content' is required", "missing_field");
        return {messageText(*content, path + ".content")};
    }
    invalid("messages", "'messages' has no message with role \"user\"", "missing_field");
}

PromptMode modeNamed(const std::string& name)
{
    if (name == "keywords") return PromptMode::Keywords;
    if (name == "upper") return PromptMode::Upper;
    if (name == "acrostic") return PromptMode::Acrostic;
    invalid("couplet.mode", "'couplet.mode' must be \"keywords\", \"upper\" or \"acrostic\", got \"" + name + "\"");
}

std::vector<std::string> keywordList(const json& c)
{
    const json* k = field(c, "keywords");
    if (!k) return {};
    if (k->is_string()) return {k->get<std::string>()};
    if (!k->is_array()) wrongType("couplet.keywords", "a string or an array of strings", *k);
    std::vector<std::string> out;
    for (const json& item : *k) {
        if (!item.is_string()) wrongType("couplet.keywords", "a string or an array of strings", item);
        out.push_back(item.get<std::string>());
    }
    return out;
}

// embed_at: 1-6, or a position's name ("燕颔", "燕颔格", "yanhan", "last").
int embedAtField(const json& c, int fallback)
{
    const json* v = field(c, "embed_at");
    if (!v) return fallback;
    std::optional<int> at;
    if (v->is_string()) at = parseEmbedPosition(v->get<std::string>());
    else if (v->is_number_integer() && v->get<long long>() >= 1 && v->get<long long>() <= kEmbedMaxNumbered)
        at = static_cast<int>(v->get<long long>());
    else if (!v->is_number()) wrongType("couplet.embed_at", "a number or a position's name", *v);
    if (!at) invalid("couplet.embed_at", "'couplet.embed_at' must be one of " + embedPositionList() + ", got " + v->dump());
    return *at;
}

// Fields of the `couplet` object replace what the prompt said.
void applyCouplet(const json& c, ParsedPrompt& p)
{
    const std::string path = "couplet.";
    GenerationSpec& spec = p.spec;
    if (field(c, "keywords")) {
        p.keywords = keywordList(c);
        spec.keywords.clear();
        for (const auto& k : p.keywords) spec.keywords += (spec.keywords.empty() ? "" : " ") + k;
        spec.mode = PromptMode::Keywords;
    }
    if (field(c, "acrostic")) {
        spec.acrostic = stringField(c, "acrostic", path);
        if (spec.keywords.empty() && spec.mode != PromptMode::Upper) spec.mode = PromptMode::Acrostic;
    }
    if (field(c, "embed")) {
        if (field(c, "acrostic")) invalid("couplet.embed", "give 'couplet.embed' or 'couplet.acrostic', not both");
        spec.acrostic = stringField(c, "embed", path);
        if (spec.keywords.empty() && spec.mode != PromptMode::Upper) spec.mode = PromptMode::Acrostic;
    }
    if (field(c, "acrostic") && !field(c, "embed_at")) spec.embedAt = 1;
    spec.embedAt = embedAtField(c, spec.embedAt);
    if (field(c, "upper")) {
        spec.upper = stringField(c, "upper", path);
        spec.mode = PromptMode::Upper;
    }
    if (field(c, "mode")) spec.mode = modeNamed(stringField(c, "mode", path));
    if (field(c, "hengpi")) spec.hengpi = stringField(c, "hengpi", path);
    spec.length = static_cast<int>(integerField(c, "length", spec.length, 0, 32, path));
    spec.tonePattern = boolField(c, "tone", spec.tonePattern, path);
    spec.freeHengpi = boolField(c, "free_hengpi", spec.freeHengpi, path);
    spec.keywordsMustAppear = boolField(c, "keywords_must_appear", spec.keywordsMustAppear, path);
    spec.mixedZodiac = boolField(c, "mixed_zodiac", spec.mixedZodiac, path);
    spec.wholeKeywords = !boolField(c, "allow_torn_keywords", !spec.wholeKeywords, path);
    if (const json* w = field(c, "bigram_weight")) {
        if (!w->is_number()) wrongType(path + "bigram_weight", "a number", *w);
        const double x = w->get<double>();
        if (!(x >= 0 && x <= 20))
            invalid(path + "bigram_weight", "'" + path + "bigram_weight' must be between 0 (off) and 20, got " + w->dump());
        spec.bigramWeight = static_cast<float>(x);
    }
    // The year defaults to the coming Spring Festival's (itemFor); null or 0 says none.
    const auto year = c.find("year");
    spec.year = year != c.end() && year->is_null() ? 0 : static_cast<int>(integerField(c, "year", spec.year, 0, kMaxYear, path));
    if (field(c, "script")) {
        const std::string script = stringField(c, "script", path);
        const auto parsed = parseOutputScript(script);
        if (!parsed)
            invalid("couplet.script", "'couplet.script' must be " + std::string(outputScriptChoices()) + ", got \"" + script + "\"");
        spec.script = *parsed;
    }
    if (field(c, "style")) {
        spec.style = stringField(c, "style", path);
        if (!parseStyle(spec.style))
            invalid(path + "style", "'" + path + "style' must be " + styleNames() + ", got \"" + spec.style + "\"");
    }
}

} // namespace

namespace {

SamplingSettings samplingFrom(const json& body)
{
    SamplingSettings s;
    const double temperature = numberField(body, "temperature", s.temperature, 0, 2);
    const double topP = numberField(body, "top_p", s.topP, 0, 1);
    // OpenAI's temperature 0 (and top_p 0) mean "always the likeliest token".
    s.greedy = temperature == 0 || topP == 0;
    if (!s.greedy) {
        s.temperature = static_cast<float>(temperature);
        s.topP = static_cast<float>(topP);
    }
    s.seed = static_cast<std::uint64_t>(integerField(body, "seed", 0, 0, 9007199254740991LL));
    return s;
}

PromptItem itemFor(const std::string& text, const json* couplet, const std::string& param)
{
    PromptItem item;
    item.text = text;
    const bool hasText = !text.empty();
    if (!hasText && !couplet) invalid(param, param + " is empty: say what the couplet is about", "unusable_prompt");
    if (hasText) {
        try {
            item.parsed = PromptParser::parse(text);
        } catch (const PromptError& e) {
            // With a couplet object the prompt may be only framing: the object says what to write.
            if (!couplet) invalid(param, param + ": " + e.what(), "unusable_prompt");
            item.parsed = {};
            item.parsed.ignored.push_back(text);
        }
    }
    // A couplet is for the coming Spring Festival unless the couplet object says otherwise.
    item.parsed.spec.year = comingSpringFestivalYear();
    if (couplet) {
        applyCouplet(*couplet, item.parsed);
        const auto& s = item.parsed.spec;
        if (s.keywords.empty() && s.upper.empty() && s.acrostic.empty())
            invalid("couplet", "'couplet' gives no keywords, upper, acrostic or embed, and the prompt names none", "unusable_prompt");
    }
    item.source = hasText && couplet ? "prompt+couplet" : couplet ? "couplet" : "prompt";
    return item;
}

void readOptions(const json& body, CompletionRequest& r)
{
    r.model = stringField(body, "model");
    r.user = stringField(body, "user");
    r.stream = boolField(body, "stream", false);
    if (const json* o = field(body, "stream_options")) {
        if (!o->is_object()) wrongType("stream_options", "an object", *o);
        r.includeUsage = boolField(*o, "include_usage", false, "stream_options.");
    }
    r.n = static_cast<int>(integerField(body, "n", 1, 1, kMaxChoices));
    r.bestOf = static_cast<int>(integerField(body, "best_of", 0, 1, kMaxSampledCandidates));
    r.maxTokens = static_cast<int>(integerField(body, r.endpoint == Endpoint::Chat && field(body, "max_completion_tokens")
                                                          ? "max_completion_tokens" : "max_tokens",
                                                      0, 1, 4096));
}

} // namespace

CompletionRequest CompletionRequestParser::parse(std::string_view text, Endpoint endpoint)
{
    const json body = parseBody(text);
    CompletionRequest r;
    r.endpoint = endpoint;
    readOptions(body, r);
    const json* couplet = field(body, "couplet");
    if (couplet && !couplet->is_object()) wrongType("couplet", "an object", *couplet);
    if (couplet) r.n = static_cast<int>(integerField(*couplet, "candidates", r.n, 1, kMaxChoices, "couplet."));
    if (r.bestOf > 0 && r.bestOf < r.n)
        invalid("best_of", "best_of (" + std::to_string(r.bestOf) + ") must be at least n (" + std::to_string(r.n) + ")");
    const bool rerank = couplet ? boolField(*couplet, "rerank", true, "couplet.") : true;
    std::vector<std::string> prompts = endpoint == Endpoint::Chat ? chatPrompt(body) : completionPrompts(body);
    if (prompts.empty() && !couplet) invalid("prompt", "'prompt' is required (or a 'couplet' object)", "missing_field");
    if (prompts.empty()) prompts.emplace_back();
    if (static_cast<int>(prompts.size()) * r.n > kMaxSequences)
        invalid("n", std::to_string(prompts.size()) + " prompts x n " + std::to_string(r.n) + " is more than "
                         + std::to_string(kMaxSequences) + " couplets in one request");
    const SamplingSettings sampling = samplingFrom(body);
    const std::string param = endpoint == Endpoint::Chat ? "messages" : "prompt";
    for (std::size_t i = 0; i < prompts.size(); ++i) {
        const std::string name = prompts.size() > 1 ? param + "[" + std::to_string(i) + "]" : param;
        PromptItem item = itemFor(prompts[i], couplet, name);
        item.parsed.spec.sampling = sampling;
        item.parsed.spec.candidates = r.n;
        item.parsed.spec.bestOf = r.bestOf;
        item.parsed.spec.rerank = rerank;
        r.prompts.push_back(std::move(item));
    }
    return r;
}

} // namespace couplet
