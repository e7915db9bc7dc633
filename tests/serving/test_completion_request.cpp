#include "check.h"

#include "api_error.h"
#include "completion_request.h"
#include "couplet_text_stream.h"
#include "embed_position.h"
#include "response_format.h"
#include "serving_job.h"
#include "serving_metrics.h"
#include "spring_festival.h"
#include "utf8.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <thread>

using namespace couplet;
using json = nlohmann::json;

namespace {

// The ApiError a body gets, as JSON, with its status.
std::pair<int, json> refusal(const std::string& body, Endpoint endpoint = Endpoint::Completions)
{
    try {
        CompletionRequestParser::parse(body, endpoint);
    } catch (const ApiError& e) {
        return {e.status(), json::parse(e.body())};
    }
    return {0, json()};
}

std::string paramOf(const json& error) { return error["error"]["param"].is_null() ? "" : error["error"]["param"].get<std::string>(); }
std::string messageOf(const json& error) { return error["error"]["message"].get<std::string>(); }

} // namespace

COUPLET_TEST(readsACompletionRequest)
{
    const auto r = CompletionRequestParser::parse(
        R"({"model":"x","prompt":["龙年大吉","上联：春回大地千山秀"],"n":2,"max_tokens":40,"temperature":0.5,
            "top_p":0.9,"seed":7,"stream":true,"user":"page-1","logprobs":null})",
        Endpoint::Completions);
    CHECK_EQ(r.prompts.size(), std::size_t{2});
    CHECK_EQ(r.n, 2);
    CHECK_EQ(r.sequences(), 4);
    CHECK_EQ(r.maxTokens, 40);
    CHECK(r.stream);
    CHECK_EQ(r.user, std::string("page-1"));
    const auto& s = r.prompts[1].parsed.spec;
    CHECK(s.mode == PromptMode::Upper);
    CHECK_EQ(s.candidates, 2);
    CHECK_NEAR(s.sampling.temperature, 0.5, 1e-6);
    CHECK_NEAR(s.sampling.topP, 0.9, 1e-6);
    CHECK_EQ(s.sampling.seed, std::uint64_t{7});
    CHECK(!s.sampling.greedy);
    CHECK(CompletionRequestParser::parse(R"({"prompt":"龙年","temperature":0})", Endpoint::Completions)
              .prompts[0].parsed.spec.sampling.greedy);
}

COUPLET_TEST(coupletObjectOverridesTheParse)
{
    auto r = CompletionRequestParser::parse(
        R"({"prompt":"生成一副关于春节的五言春联","couplet":{"length":9,"hengpi":"万象更新","candidates":3}})",
        Endpoint::Completions);
    const auto& item = r.prompts[0];
    CHECK_EQ(item.parsed.spec.length, 9);
    CHECK_EQ(item.parsed.spec.hengpi, std::string("万象更新"));
    CHECK_EQ(item.parsed.spec.keywords, std::string("春节"));
    CHECK_EQ(r.n, 3);
    CHECK_EQ(item.source, std::string("prompt+couplet"));
    r = CompletionRequestParser::parse(R"({"couplet":{"mode":"acrostic","acrostic":"春福","length":5}})", Endpoint::Completions);
    CHECK(r.prompts[0].parsed.spec.mode == PromptMode::Acrostic);
    CHECK_EQ(r.prompts[0].source, std::string("couplet"));
    r = CompletionRequestParser::parse(R"({"prompt":"关于春节","couplet":{"keywords":["龙年","吉祥"]}})", Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.keywords, std::string("龙年 吉祥"));
    CHECK_EQ(r.prompts[0].parsed.spec.year, comingSpringFestivalYear()); // a couplet is for the coming festival
    r = CompletionRequestParser::parse(R"({"prompt":"关于开业","couplet":{"year":2027}})", Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.year, 2027);
    r = CompletionRequestParser::parse(R"({"prompt":"关于开业","couplet":{"year":null}})", Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.year, 0); // null or 0: no year
    r = CompletionRequestParser::parse(R"({"prompt":"关于开业","couplet":{"year":0}})", Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.year, 0);
    r = CompletionRequestParser::parse(R"({"prompt":"九言春联，关于开业"})", Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.year, comingSpringFestivalYear());
    CHECK_EQ(r.prompts[0].parsed.spec.length, 9); // Han characters (LineShape): the mark is not counted
    CHECK(r.prompts[0].parsed.spec.style.empty()); // the model's default
    r = CompletionRequestParser::parse(R"({"prompt":"关于开业","couplet":{"style":"modern"}})", Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.style, std::string("modern"));
    // The decoding rules against made-up words and torn keywords: the model's default unless asked.
    CHECK(r.prompts[0].parsed.spec.bigramWeight < 0);
    CHECK(r.prompts[0].parsed.spec.wholeKeywords);
    r = CompletionRequestParser::parse(R"({"prompt":"关于开业","couplet":{"bigram_weight":0,"allow_torn_keywords":true}})",
                                       Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.bigramWeight, 0.0f);
    CHECK(!r.prompts[0].parsed.spec.wholeKeywords);
}

COUPLET_TEST(coupletObjectEmbedsANameAtAPosition)
{
    auto r = CompletionRequestParser::parse(R"({"couplet":{"embed":"德顺","embed_at":2,"length":7}})", Endpoint::Completions);
    auto spec = r.prompts[0].parsed.spec;
    CHECK(spec.mode == PromptMode::Acrostic);
    CHECK_EQ(spec.acrostic, std::string("德顺"));
    CHECK_EQ(spec.embedAt, 2);
    r = CompletionRequestParser::parse(R"({"couplet":{"embed":"德顺","embed_at":"雁足格"}})", Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.embedAt, kEmbedLast);
    r = CompletionRequestParser::parse(R"({"couplet":{"embed":"德顺","embed_at":"last"}})", Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.embedAt, kEmbedLast);
    // The sentence's position, unless the object gives one; acrostic alone is 藏头.
    r = CompletionRequestParser::parse(R"({"prompt":"嵌名德顺，凫胫格","couplet":{"length":9}})", Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.embedAt, 6);
    r = CompletionRequestParser::parse(R"({"prompt":"嵌名德顺，凫胫格","couplet":{"acrostic":"春福"}})", Endpoint::Completions);
    CHECK_EQ(r.prompts[0].parsed.spec.embedAt, 1);
    ResponseFormat format(r, "default");
    CHECK_EQ(format.understood()[0]["embed_position"].get<std::string>(), std::string("鹤顶格"));
    for (const char* bad : {R"({"couplet":{"embed":"德顺","embed_at":7}})", R"({"couplet":{"embed":"德顺","embed_at":"腰"}})",
                            R"({"couplet":{"embed":"德顺","embed_at":true}})"}) {
        const auto [status, error] = refusal(bad);
        CHECK_EQ(status, 400);
        CHECK_EQ(paramOf(error), std::string("couplet.embed_at"));
    }
    const auto [status, error] = refusal(R"({"couplet":{"embed":"德顺","acrostic":"春福"}})");
    CHECK_EQ(status, 400);
    CHECK(messageOf(error).find("not both") != std::string::npos);
}

// couplet.script: the text streams in whole lines, converted by phrase.
COUPLET_TEST(traditionalTextStreamsLineByLine)
{
    auto r = CompletionRequestParser::parse(R"({"couplet":{"keywords":"发财","script":"traditional"}})", Endpoint::Completions);
    CHECK(r.prompts[0].parsed.spec.script == OutputScript::Traditional);
    const auto [status, error] = refusal(R"({"couplet":{"keywords":"发财","script":"martian"}})");
    CHECK_EQ(status, 400);
    CHECK_EQ(paramOf(error), std::string("couplet.script"));

    CoupletTextStream stream(OutputScript::Traditional);
    std::string sent;
    for (const auto& ch : utf8::characters("头发乌黑添喜气\n干净门庭发财福\n万象更新")) {
        const std::string piece = stream.push(ch);
        CHECK(piece.find("头") == std::string::npos); // never a Simplified character
        sent += piece;
    }
    CHECK_EQ(sent, std::string("上联：頭髮烏黑添喜氣\n下联：乾淨門庭發財福\n横批："));
    sent += stream.finish();
    CHECK_EQ(sent, std::string("上联：頭髮烏黑添喜氣\n下联：乾淨門庭發財福\n横批：萬象更新"));
    CHECK_EQ(stream.text(), sent);
    ServingJob job(1, 2, {OutputScript::Simplified, OutputScript::HongKong});
    job.deliver(1, "这里\n");
    job.deliver(0, "这里\n");
    CandidateSequence done;
    done.status = RequestStatus::Done;
    job.deliver(1, "那里\n面条");
    job.finish(1, done);
    job.finish(0, done);
    const auto outcomes = job.outcomes();
    CHECK_EQ(outcomes[1].text, std::string("上联：這裏\n下联：那裏\n横批：麪條"));
    CHECK_EQ(outcomes[0].text, std::string("上联：这里\n下联："));
    // A couplet chosen from more candidates arrives whole at its end: its
    // last line is converted too, and the events carry what the outcome says.
    ServingJob chosen(2, 1, {OutputScript::Traditional});
    chosen.finish(0, done, "头发\n干净\n万象更新");
    const std::string whole = chosen.outcomes()[0].text;
    CHECK_EQ(whole, std::string("上联：頭髮\n下联：乾淨\n横批：萬象更新"));
    std::string streamed;
    for (const auto& e : chosen.takeEvents()) streamed += e.text;
    CHECK_EQ(streamed, whole);
    CHECK_EQ(sequenceScripts({GenerationSpec{}, r.prompts[0].parsed.spec}, 2).size(), std::size_t{4});
}

COUPLET_TEST(chatUsesTheLastUserMessage)
{
    const auto r = CompletionRequestParser::parse(
        R"({"messages":[{"role":"system","content":"你是对联助手"},{"role":"user","content":"关于春节"},
            {"role":"assistant","content":"…"},{"role":"user","content":[{"type":"text","text":"藏头春福的五言春联"}]}]})",
        Endpoint::Chat);
    CHECK_EQ(r.prompts.size(), std::size_t{1});
    CHECK_EQ(r.prompts[0].parsed.spec.acrostic, std::string("春福"));
    CHECK_EQ(r.prompts[0].parsed.spec.length, 5);
    const auto [status, error] = refusal(R"({"messages":[{"role":"system","content":"x"}]})", Endpoint::Chat);
    CHECK_EQ(status, 400);
    CHECK_EQ(paramOf(error), std::string("messages"));
}

COUPLET_TEST(malformedJsonNamesTheByte)
{
    // The second comma is byte 21 (1-based; 龙年 is six bytes).
    const auto [status, error] = refusal(R"({"prompt": "龙年",, })");
    CHECK_EQ(status, 400);
    CHECK(messageOf(error).find("malformed JSON at byte 21") != std::string::npos);
    CHECK_EQ(error["error"]["type"].get<std::string>(), std::string("invalid_request_error"));
    CHECK_EQ(error["error"]["code"].get<std::string>(), std::string("invalid_json"));
    CHECK_EQ(refusal("[1,2]").first, 400);
    // Found by serving_fuzzer: a number too large for a double was not a parse_error.
    const auto [overflow, overflowError] = refusal(R"({"prompt":"龙年","n":1e999})");
    CHECK_EQ(overflow, 400);
    CHECK(messageOf(overflowError).find("number overflow") != std::string::npos);
}

// n couplets chosen from best_of candidates, each prompt's spec saying both.
COUPLET_TEST(bestOfAndRerankReachTheSpec)
{
    const auto r = CompletionRequestParser::parse(R"({"prompt":"龙年","n":2,"best_of":5,"couplet":{"rerank":false}})",
                                                  Endpoint::Completions);
    CHECK_EQ(r.prompts.at(0).parsed.spec.candidates, 2);
    CHECK_EQ(r.prompts.at(0).parsed.spec.bestOf, 5);
    CHECK(!r.prompts.at(0).parsed.spec.rerank);
    const auto plain = CompletionRequestParser::parse(R"({"prompt":"龙年"})", Endpoint::Completions);
    CHECK_EQ(plain.prompts.at(0).parsed.spec.bestOf, 0);
    CHECK(plain.prompts.at(0).parsed.spec.rerank);
}

COUPLET_TEST(wrongTypesNameTheField)
{
    const std::pair<const char*, const char*> cases[] = {
        {R"({"prompt":"龙年","n":"2"})", "n"},
        {R"({"prompt":"龙年","n":1.5})", "n"},
        {R"({"prompt":"龙年","n":99})", "n"},
        {R"({"prompt":"龙年","n":3,"best_of":2})", "best_of"},
        {R"({"prompt":"龙年","best_of":65})", "best_of"},
        {R"({"prompt":"龙年","couplet":{"rerank":"no"}})", "couplet.rerank"},
        {R"({"prompt":"龙年","stream":"yes"})", "stream"},
        {R"({"prompt":"龙年","temperature":"hot"})", "temperature"},
        {R"({"prompt":"龙年","temperature":3})", "temperature"},
        {R"({"prompt":"龙年","top_p":2})", "top_p"},
        {R"({"prompt":"龙年","seed":-1})", "seed"},
        {R"({"prompt":"龙年","max_tokens":0})", "max_tokens"},
        {R"({"prompt":"龙年","user":5})", "user"},
        {R"({"prompt":42})", "prompt"},
        {R"({"prompt":["龙年",[1,2]]})", "prompt[1]"},
        {R"({"prompt":[]})", "prompt"},
        {R"({"prompt":"龙年","couplet":"七言"})", "couplet"},
        {R"({"prompt":"龙年","couplet":{"length":"七"}})", "couplet.length"},
        {R"({"prompt":"龙年","couplet":{"mode":"poem"}})", "couplet.mode"},
        {R"({"prompt":"龙年","couplet":{"tone":1}})", "couplet.tone"},
        {R"({"prompt":"龙年","couplet":{"year":"羊年"}})", "couplet.year"},
        {R"({"prompt":"龙年","couplet":{"year":-2027}})", "couplet.year"},
        {R"({"prompt":"龙年","couplet":{"style":"autumn"}})", "couplet.style"},
        {R"({"prompt":"龙年","couplet":{"style":1}})", "couplet.style"},
        {R"({"prompt":"龙年","couplet":{"bigram_weight":"strong"}})", "couplet.bigram_weight"},
        {R"({"prompt":"龙年","couplet":{"bigram_weight":-1}})", "couplet.bigram_weight"},
        {R"({"prompt":"龙年","couplet":{"allow_torn_keywords":"yes"}})", "couplet.allow_torn_keywords"},
        {R"({"messages":"hi"})", "messages"},
    };
    for (const auto& [body, field] : cases) {
        const auto [status, error] = refusal(body, std::string(body).find("messages") != std::string::npos ? Endpoint::Chat
                                                                                                            : Endpoint::Completions);
        if (status != 400 || paramOf(error) != field)
            throw test::Failure{std::string(body) + ": status " + std::to_string(status) + ", param '" + paramOf(error) + "'"};
        CHECK(messageOf(error).find(field) != std::string::npos);
    }
}

COUPLET_TEST(unusablePromptsSayWhy)
{
    auto [status, error] = refusal(R"({"prompt":"hello"})");
    CHECK_EQ(status, 400);
    CHECK(messageOf(error).find("no Han characters") != std::string::npos);
    CHECK_EQ(error["error"]["code"].get<std::string>(), std::string("unusable_prompt"));
    std::tie(status, error) = refusal(R"({"prompt":["龙年","写一副春联"]})");
    CHECK_EQ(paramOf(error), std::string("prompt[1]"));
    CHECK(messageOf(error).find("names no theme") != std::string::npos);
    CHECK_EQ(refusal(R"({"model":"x"})").first, 400);
}

COUPLET_TEST(bodyOverOneMebibyteIs413)
{
    const std::string body = R"({"prompt":")" + std::string(kMaxBodyBytes, 'a') + R"("})";
    const auto [status, error] = refusal(body);
    CHECK_EQ(status, 413);
    CHECK_EQ(error["error"]["code"].get<std::string>(), std::string("body_too_large"));
}

COUPLET_TEST(textStreamLabelsLinesAndNeverSplitsACharacter)
{
    const std::string raw = "春回大地\n福满人间\n万象更新";
    CoupletTextStream stream;
    std::string joined;
    // One byte at a time: every piece that comes out is whole UTF-8.
    for (char byte : raw) {
        const std::string piece = stream.push(std::string_view(&byte, 1));
        CHECK(piece.empty() || (static_cast<unsigned char>(piece.back()) & 0xC0) == 0x80 || piece.back() == '\n'
              || static_cast<unsigned char>(piece.back()) < 0x80);
        CHECK(utf8::firstInvalid(piece) == std::string::npos);
        joined += piece;
    }
    CHECK_EQ(joined, std::string("上联：春回大地\n下联：福满人间\n横批：万象更新"));
    CHECK_EQ(stream.text(), joined);
}

COUPLET_TEST(formatsCompletionsAndChunks)
{
    auto request = CompletionRequestParser::parse(R"({"prompt":["龙年大吉","关于春节"],"n":2})", Endpoint::Completions);
    ResponseFormat format(request, "default");
    std::vector<ChoiceOutcome> choices;
    for (int i = 0; i < 4; ++i) choices.push_back({i, "上联：甲\n下联：乙\n横批：丙丁戊己", "stop", 5, 12});
    const json body = json::parse(format.completion(choices));
    CHECK_EQ(body["object"].get<std::string>(), std::string("text_completion"));
    CHECK_EQ(body["model"].get<std::string>(), std::string("default"));
    CHECK_EQ(body["choices"].size(), std::size_t{4});
    CHECK_EQ(body["choices"][3]["index"].get<int>(), 3);
    CHECK_EQ(body["usage"]["prompt_tokens"].get<int>(), 20);
    CHECK_EQ(body["usage"]["completion_tokens"].get<int>(), 48);
    CHECK_EQ(body["usage"]["total_tokens"].get<int>(), 68);
    CHECK_EQ(body["understood"][1]["keywords"][0].get<std::string>(), std::string("春节"));
    CHECK_EQ(body["understood"][1]["candidates"].get<int>(), 2);

    const std::string event = format.deltaEvent(2, "上联：春");
    CHECK(event.rfind("data: ", 0) == 0 && event.size() > 8 && event.substr(event.size() - 2) == "\n\n");
    const json chunk = json::parse(event.substr(6));
    CHECK_EQ(chunk["choices"][0]["text"].get<std::string>(), std::string("上联：春"));
    CHECK(chunk.contains("understood"));
    CHECK(!json::parse(format.deltaEvent(2, "回").substr(6)).contains("understood"));

    auto chat = CompletionRequestParser::parse(R"({"messages":[{"role":"user","content":"龙年"}]})", Endpoint::Chat);
    ResponseFormat chatFormat(chat, "default");
    CHECK_EQ(json::parse(chatFormat.completion({choices[0]}))["choices"][0]["message"]["content"].get<std::string>(),
             choices[0].text);
    const json opening = json::parse(chatFormat.openingEvents().substr(6));
    CHECK_EQ(opening["object"].get<std::string>(), std::string("chat.completion.chunk"));
    CHECK_EQ(opening["choices"][0]["delta"]["role"].get<std::string>(), std::string("assistant"));
}

COUPLET_TEST(exposesPrometheusText)
{
    ServingMetrics metrics;
    metrics.countRequest("/v1/completions", "ok");
    metrics.countRequest("/v1/completions", "ok");
    metrics.countRequest("/v1/completions", "invalid");
    metrics.addTokens(10, 30);
    metrics.observeFirstToken(0.02);
    metrics.observeRequest(0.3);
    SystemMonitor::Sample system;
    system.cpuMachinePercent = 42;
    const std::string text = metrics.exposition({3, 5, 8, 100}, system);
    CHECK(text.find("couplet_requests_total{endpoint=\"/v1/completions\",outcome=\"ok\"} 2\n") != std::string::npos);
    CHECK(text.find("outcome=\"invalid\"} 1\n") != std::string::npos);
    CHECK(text.find("couplet_generated_tokens_total 30\n") != std::string::npos);
    CHECK(text.find("couplet_queue_depth 3\n") != std::string::npos);
    CHECK(text.find("couplet_running_sequences 5\n") != std::string::npos);
    CHECK(text.find("couplet_batch_occupancy 0.625\n") != std::string::npos);
    CHECK(text.find("couplet_cpu_utilization_percent 42\n") != std::string::npos);
    CHECK(text.find("couplet_time_to_first_token_seconds_bucket{le=\"0.025\"} 1\n") != std::string::npos);
    CHECK(text.find("couplet_time_to_first_token_seconds_bucket{le=\"0.01\"} 0\n") != std::string::npos);
    CHECK(text.find("couplet_request_duration_seconds_count 1\n") != std::string::npos);
    CHECK(text.find("# TYPE couplet_request_duration_seconds histogram\n") != std::string::npos);
}

namespace {

// Runs `wait` on another thread, then `act` here; the seconds the waiter took.
template <typename Wait, typename Act>
double secondsWaited(Wait wait, Act act)
{
    const auto start = std::chrono::steady_clock::now();
    std::thread waiter(wait);
    act();
    waiter.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string textOf(const std::vector<JobEvent>& events)
{
    std::string text;
    for (const auto& e : events) text += e.text;
    return text;
}

} // namespace

// A stream's first text wakes its waiter at once (the slice is minutes long:
// a missed wake-up shows as a wait of minutes).
COUPLET_TEST(servingJobWakesAStreamOnItsFirstText)
{
    ServingJob job(1, 1);
    const double s = secondsWaited([&] { job.waitForEvents(std::chrono::minutes(3)); }, [&] { job.deliver(0, "春"); });
    CHECK(s < 60);
    const auto events = job.takeEvents();
    CHECK_EQ(events.size(), std::size_t{1});
    CHECK_EQ(textOf(events), std::string("上联：春"));
}

// Text within the gathering window is held and joins what follows; the end
// is never held: the waiter gets all of it in one hand-over.
COUPLET_TEST(servingJobGathersTextButNotTheEnd)
{
    ServingJob job(1, 2);
    const auto gatherUntil = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    const double s = secondsWaited([&] { job.waitForEvents(std::chrono::minutes(3), gatherUntil); },
                                   [&] {
                                       job.deliver(0, "春风");
                                       job.deliver(0, "\n");
                                       job.deliver(1, "瑞");
                                       job.finish(0, CandidateSequence{});
                                       job.finish(1, CandidateSequence{RequestStatus::Done, {}, true, {}});
                                   });
    CHECK(s < 60);
    CHECK(job.done());
    const auto events = job.takeEvents();
    CHECK_EQ(textOf(events), std::string("上联：春风\n下联：上联：瑞"));
    int ends = 0;
    for (const auto& e : events) ends += e.finished ? 1 : 0;
    CHECK_EQ(ends, 2);
    const auto outcomes = job.outcomes();
    CHECK_EQ(outcomes[1].finishReason, std::string("length"));
}

// A whole (not streamed) response waits for the end only, and the text is kept.
COUPLET_TEST(servingJobWaitForEndReturnsAtTheEnd)
{
    ServingJob job(1, 1);
    const double s = secondsWaited([&] { job.waitForEnd(std::chrono::minutes(3)); },
                                   [&] {
                                       job.deliver(0, "春");
                                       job.finish(0, CandidateSequence{});
                                   });
    CHECK(s < 60);
    const auto outcomes = job.outcomes();
    CHECK_EQ(outcomes[0].text, std::string("上联：春"));
}
