#include "check.h"
#include "server_rig.h"

#include "utf8.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <regex>

using namespace couplet;
using namespace couplet::testing;
using json = nlohmann::json;

namespace {

json post(ServerRig& rig, const std::string& path, const json& body)
{
    auto client = rig.client();
    const auto res = client.Post(path.c_str(), body.dump(), "application/json");
    if (!res) throw test::Failure{"no response from " + path};
    if (res->status != 200) throw test::Failure{path + ": HTTP " + std::to_string(res->status) + " " + res->body};
    return json::parse(res->body);
}

// "上联：<n characters>\n下联：<n characters>\n横批：<4 Han>"
bool isCouplet(const std::string& text, int length)
{
    const auto lines = utf8::decode(text);
    std::vector<std::u32string> parts{{}};
    for (char32_t c : lines) {
        if (c == U'\n') parts.emplace_back();
        else parts.back().push_back(c);
    }
    if (parts.size() != 3) return false;
    const std::u32string labels[] = {U"上联：", U"下联：", U"横批："};
    for (int i = 0; i < 3; ++i) {
        if (parts[i].rfind(labels[i], 0) != 0) return false;
        const auto body = parts[i].substr(3);
        const std::size_t want = i == 2 ? 4 : static_cast<std::size_t>(length);
        // Lines may hold couplet punctuation (，) that the model writes, which a length does
        // not count (九言: nine Han characters); the 横批 is four Han characters.
        const auto isMark = [&](char32_t c) { return i < 2 && std::u32string_view(U"，、；？！").find(c) != std::u32string_view::npos; };
        const auto han = static_cast<std::size_t>(std::count_if(body.begin(), body.end(), [](char32_t c) { return utf8::isHan(c); }));
        if (han != want || !std::all_of(body.begin(), body.end(), [&](char32_t c) { return utf8::isHan(c) || isMark(c); })) return false;
    }
    return true;
}

struct SseEvents {
    std::vector<json> chunks;
    bool done = false;
    std::string raw;
};

SseEvents streamed(ServerRig& rig, const std::string& path, const json& body)
{
    SseEvents events;
    auto client = rig.client();
    httplib::Request req;
    req.method = "POST";
    req.path = path;
    req.body = body.dump();
    req.set_header("Content-Type", "application/json");
    req.content_receiver = [&](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
        events.raw.append(data, size);
        return true;
    };
    const auto res = client.send(req);
    if (!res || res->status != 200) throw test::Failure{"stream failed"};
    CHECK(res->get_header_value("Content-Type").find("text/event-stream") == 0);
    // Delimited by the connection's close, not chunked: node-fetch (the OpenAI
    // Node client on Node.js 18) fails a chunked stream whose reader stopped
    // at [DONE] before the terminating chunk came ("Premature close").
    CHECK(!res->has_header("Transfer-Encoding"));
    CHECK_EQ(res->get_header_value("Connection"), std::string("close"));
    std::size_t at = 0;
    for (std::size_t end; (end = events.raw.find("\n\n", at)) != std::string::npos; at = end + 2) {
        const std::string line = events.raw.substr(at, end - at);
        CHECK(line.rfind("data: ", 0) == 0);
        CHECK(!events.done); // nothing after [DONE]
        if (line == "data: [DONE]") events.done = true;
        else events.chunks.push_back(json::parse(line.substr(6))); // throws on broken UTF-8
    }
    CHECK_EQ(at, events.raw.size());
    return events;
}

} // namespace

COUPLET_TEST(promptArrayAndCandidatesGiveOneChoiceEach)
{
    ServerRig rig;
    const json body = post(rig, "/v1/completions",
                           {{"model", "tiny"}, {"prompt", {"生成一副关于新春、吉祥的七言春联，横批万事如意", "五言春联 龙年", "九言对联，主题是国泰民安"}},
                            {"n", 2}, {"best_of", 2}, {"seed", 11}});
    CHECK_EQ(body["object"].get<std::string>(), std::string("text_completion"));
    CHECK_EQ(body["model"].get<std::string>(), std::string("tiny"));
    CHECK_EQ(body["choices"].size(), std::size_t{6});
    const int lengths[] = {7, 5, 9};
    for (int i = 0; i < 6; ++i) {
        const auto& c = body["choices"][static_cast<std::size_t>(i)];
        CHECK_EQ(c["index"].get<int>(), i);
        CHECK_EQ(c["finish_reason"].get<std::string>(), std::string("stop"));
        CHECK(isCouplet(c["text"].get<std::string>(), lengths[i / 2]));
    }
    CHECK(body["choices"][0]["text"].get<std::string>().ends_with("横批：万事如意"));
    CHECK(body["usage"]["completion_tokens"].get<int>() > 0);
    CHECK_EQ(body["usage"]["total_tokens"].get<int>(),
             body["usage"]["prompt_tokens"].get<int>() + body["usage"]["completion_tokens"].get<int>());
    CHECK_EQ(body["understood"].size(), std::size_t{3});
    CHECK_EQ(body["understood"][0]["keywords"], json({"新春", "吉祥"}));
    CHECK_EQ(body["understood"][0]["hengpi"].get<std::string>(), std::string("万事如意"));
    // best_of = n: one sampled candidate per choice, all six admitted by one step.
    CHECK_EQ(rig.engine->stats().largestAdmission, 6);
}

COUPLET_TEST(seedMakesChoicesReproducible)
{
    ServerRig rig;
    const json request{{"prompt", "关于吉祥的春联"}, {"seed", 5}, {"n", 2}};
    const json a = post(rig, "/v1/completions", request);
    const json b = post(rig, "/v1/completions", request);
    CHECK_EQ(a["choices"][0]["text"], b["choices"][0]["text"]);
    CHECK_EQ(a["choices"][1]["text"], b["choices"][1]["text"]);
}

COUPLET_TEST(maxTokensCutsAChoiceShort)
{
    ServerRig rig;
    const json body = post(rig, "/v1/completions", {{"prompt", "关于吉祥的春联"}, {"max_tokens", 3}});
    CHECK_EQ(body["choices"][0]["finish_reason"].get<std::string>(), std::string("length"));
    CHECK_EQ(body["usage"]["completion_tokens"].get<int>(), 3);
    const std::string text = body["choices"][0]["text"].get<std::string>();
    CHECK(text.rfind("上联：", 0) == 0);
    CHECK_EQ(utf8::length(text), std::size_t{6}); // the label and three characters
}

COUPLET_TEST(streamsWholeCharactersThenDone)
{
    ServerRig rig;
    const auto events = streamed(rig, "/v1/completions",
                                 {{"prompt", {"关于吉祥的七言春联", "上联：春风送暖满山花"}}, {"n", 2}, {"best_of", 2}, {"stream", true}});
    CHECK(events.done);
    std::vector<std::string> text(4);
    std::vector<std::string> finish(4);
    for (const auto& chunk : events.chunks) {
        CHECK_EQ(chunk["object"].get<std::string>(), std::string("text_completion"));
        for (const auto& c : chunk["choices"]) {
            const auto i = c["index"].get<std::size_t>();
            text[i] += c["text"].get<std::string>();
            if (!c["finish_reason"].is_null()) finish[i] = c["finish_reason"].get<std::string>();
        }
    }
    CHECK(events.chunks.front().contains("understood"));
    CHECK(events.chunks.size() > 8); // pieces, not one blob per choice
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(isCouplet(text[i], 7));
        CHECK_EQ(finish[i], std::string("stop"));
    }
    CHECK(text[2].rfind("上联：春风送暖满山花\n", 0) == 0);
}

// By default a choice is the reranked best of kRerankPool candidates, known
// only once they all ended: a stream sends each chosen couplet whole, in one
// event, and the same couplets as the whole response.
COUPLET_TEST(streamedChoicesOfARerankedRequestArriveWhole)
{
    ServerRig rig;
    const json request{{"prompt", "关于吉祥的七言春联"}, {"n", 2}, {"seed", 3}};
    const json whole = post(rig, "/v1/completions", request);
    json streaming = request;
    streaming["stream"] = true;
    const auto events = streamed(rig, "/v1/completions", streaming);
    CHECK(events.done);
    std::vector<std::string> text(2);
    std::vector<int> pieces(2, 0);
    for (const auto& chunk : events.chunks)
        for (const auto& c : chunk["choices"]) {
            const auto i = c["index"].get<std::size_t>();
            if (c["text"].get<std::string>().empty()) continue;
            text[i] += c["text"].get<std::string>();
            ++pieces[i];
        }
    for (std::size_t i = 0; i < 2; ++i) {
        CHECK_EQ(pieces[i], 1);
        CHECK_EQ(text[i], whole["choices"][i]["text"].get<std::string>());
    }
}

COUPLET_TEST(chatCompletionsWholeAndStreamed)
{
    ServerRig rig;
    const json request{{"model", "tiny"}, {"messages", {{{"role", "system"}, {"content", "你是对联助手"}}, {{"role", "user"}, {"content", "藏头春福的五言春联"}}}}};
    const json body = post(rig, "/v1/chat/completions", request);
    CHECK_EQ(body["object"].get<std::string>(), std::string("chat.completion"));
    const std::string content = body["choices"][0]["message"]["content"].get<std::string>();
    CHECK(isCouplet(content, 5));
    CHECK(content.rfind("上联：春", 0) == 0);
    CHECK(content.find("\n下联：福") != std::string::npos);
    json streaming = request;
    streaming["stream"] = true;
    const auto events = streamed(rig, "/v1/chat/completions", streaming);
    CHECK(events.done);
    CHECK_EQ(events.chunks.front()["choices"][0]["delta"]["role"].get<std::string>(), std::string("assistant"));
    std::string text;
    for (const auto& chunk : events.chunks)
        for (const auto& c : chunk["choices"])
            if (c["delta"].contains("content")) text += c["delta"]["content"].get<std::string>();
    CHECK(isCouplet(text, 5));
    CHECK_EQ(events.chunks.back()["choices"][0]["finish_reason"].get<std::string>(), std::string("stop"));
}

// A stream that ended with [DONE] closes its connection at once and counts
// as ok, not as a client that went away.
COUPLET_TEST(aFinishedStreamClosesItsConnectionAndCountsAsOk)
{
    ServerRig rig;
    const auto events = streamed(rig, "/v1/completions", {{"prompt", "关于吉祥的春联"}, {"stream", true}});
    CHECK(events.done);
    CHECK(waitUntil([&] { return rig.metrics.requests("/v1/completions", "ok") == 1; }));
    CHECK_EQ(rig.metrics.requests("/v1/completions", "cancelled"), 0);
    // and the next stream is served as well.
    const auto again = streamed(rig, "/v1/completions", {{"prompt", "关于新春的春联"}, {"stream", true}});
    CHECK(again.done);
    CHECK(waitUntil([&] { return rig.metrics.requests("/v1/completions", "ok") == 2; }));
}

COUPLET_TEST(modelsHealthAndMetrics)
{
    ServerRig rig;
    auto client = rig.client();
    auto res = client.Get("/v1/models");
    CHECK(res && res->status == 200);
    const json models = json::parse(res->body);
    CHECK_EQ(models["data"][0]["id"].get<std::string>(), std::string("tiny"));
    CHECK_EQ(models["data"][0]["name"].get<std::string>(), std::string("Tiny test model"));
    CHECK_EQ(models["data"][0]["size"].get<std::string>(), std::string("0.1 M parameters: dim 32"));
    res = client.Get("/health");
    CHECK(res && res->status == 200);
    CHECK_EQ(json::parse(res->body)["status"].get<std::string>(), std::string("ok"));
    post(rig, "/v1/completions", {{"prompt", "关于吉祥的春联"}});
    post(rig, "/v1/completions", {{"prompt", "关于新春的春联"}});
    client.Post("/v1/completions", "{", "application/json");
    // Counted once each response is written, so perhaps just after the client has it.
    CHECK(waitUntil([&] { return rig.metrics.requests("/v1/completions", "invalid") == 1; }));
    CHECK(waitUntil([&] { return rig.metrics.requests("/v1/completions", "ok") == 2; }));
    res = client.Get("/metrics");
    CHECK(res && res->status == 200);
    const std::string& m = res->body;
    CHECK(m.find("couplet_requests_total{endpoint=\"/v1/completions\",outcome=\"ok\"} 2\n") != std::string::npos);
    CHECK(m.find("couplet_requests_total{endpoint=\"/v1/completions\",outcome=\"invalid\"} 1\n") != std::string::npos);
    CHECK(std::regex_search(m, std::regex("couplet_generated_tokens_total [1-9][0-9]*\n")));
    // Observed per sampled candidate: two requests of one couplet, each the best of kRerankPool.
    CHECK(m.find("couplet_time_to_first_token_seconds_count " + std::to_string(2 * kRerankPool) + "\n")
          != std::string::npos);
    CHECK(m.find("couplet_request_duration_seconds_count 2\n") != std::string::npos);
    CHECK(m.find("couplet_queue_depth 0\n") != std::string::npos);
    CHECK(m.find("couplet_batch_occupancy ") != std::string::npos);
    CHECK(m.find("couplet_process_resident_memory_bytes ") != std::string::npos);
}
