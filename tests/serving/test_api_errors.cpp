#include "check.h"
#include "server_rig.h"

#include "completion_request.h"

#include <nlohmann/json.hpp>

#include <thread>

using namespace couplet;
using namespace couplet::testing;
using json = nlohmann::json;

namespace {

struct Reply {
    int status = 0;
    json error;
    std::string retryAfter;
};

Reply send(ServerRig& rig, const std::string& body, const std::string& path = "/v1/completions",
           const httplib::Headers& headers = {})
{
    auto client = rig.client();
    const auto res = client.Post(path.c_str(), headers, body, "application/json");
    if (!res) throw test::Failure{"no response"};
    Reply r{res->status, json(), res->get_header_value("Retry-After")};
    if (res->status != 200) r.error = json::parse(res->body);
    return r;
}

void checkError(const Reply& r, int status, const std::string& param, const std::string& needle)
{
    if (r.status != status) throw test::Failure{"HTTP " + std::to_string(r.status) + " " + r.error.dump()};
    const json& e = r.error["error"];
    CHECK(e["type"].is_string());
    CHECK(e.contains("code"));
    CHECK_EQ(e["param"].is_null() ? std::string() : e["param"].get<std::string>(), param);
    if (e["message"].get<std::string>().find(needle) == std::string::npos)
        throw test::Failure{"message '" + e["message"].get<std::string>() + "' lacks '" + needle + "'"};
}

const std::string kLongCouplet = R"({"prompt":"关于吉祥的春联","couplet":{"length":9}})";

} // namespace

COUPLET_TEST(badRequestsGetOpenAiErrors)
{
    ServerRig rig;
    checkError(send(rig, R"({"prompt": "龙年",, })"), 400, "", "malformed JSON at byte 21");
    checkError(send(rig, R"({"prompt": "龙年", "n": "two"})"), 400, "n", "'n' must be a whole number");
    checkError(send(rig, R"({"prompt": ["关于吉祥", 7]})"), 400, "prompt[1]", "must be a string");
    checkError(send(rig, R"({"prompt": "write me a couplet"})"), 400, "prompt", "no Han characters");
    checkError(send(rig, R"({"prompt": "关于龘的春联"})"), 400, "prompt", "龘");
    checkError(send(rig, R"({"messages": [{"role": "user", "content": 5}]})", "/v1/chat/completions"), 400,
               "messages[0].content", "must be a string");
    checkError(send(rig, std::string(R"({"prompt":")") + std::string(kMaxBodyBytes, 'x') + "\"}"), 413, "", "1 MiB");
    checkError(send(rig, "{}", "/v1/nothing"), 404, "", "no such endpoint");
    // Counted once the response is written, so perhaps just after the client has it.
    CHECK(waitUntil([&] { return rig.metrics.requests("/v1/completions", "invalid") == 5; }));
    CHECK(waitUntil([&] { return rig.metrics.requests("/v1/completions", "too_large") == 1; }));
    CHECK_EQ(rig.engine->stats().steps, 0); // nothing reached the engine
}

COUPLET_TEST(apiKeyIsRequiredWhenSet)
{
    ServerOptions options;
    options.apiKey = "s3cret";
    ServerRig rig(ServerRig::defaultEngine(), options);
    const std::string body = R"({"prompt":"关于吉祥的春联"})";
    checkError(send(rig, body), 401, "", "API key");
    checkError(send(rig, body, "/v1/completions", {{"Authorization", "Bearer wrong"}}), 401, "", "API key");
    CHECK_EQ(send(rig, body, "/v1/completions", {{"Authorization", "Bearer s3cret"}}).status, 200);
    auto client = rig.client();
    CHECK_EQ(client.Get("/v1/models")->status, 401);
    CHECK_EQ(client.Get("/health")->status, 200);
}

COUPLET_TEST(fullQueueGets429WithRetryAfter)
{
    ServingSettings settings = ServerRig::defaultEngine();
    settings.scheduler.maxBatch = 2;
    settings.maxQueue = 1;
    ServerRig rig(settings);
    rig.gate->close();
    // Two running and one queued fill the engine; the client gives up after a while.
    std::thread holder([&] {
        auto client = rig.client();
        client.Post("/v1/completions", R"({"prompt":["关于吉祥的春联","关于新春的春联","关于龙年的春联"],"best_of":1})",
                    "application/json");
    });
    CHECK(rig.gate->waitUntilHeld(std::chrono::seconds(30)));
    const Reply r = send(rig, R"({"prompt":"关于吉祥的春联","best_of":1})");
    checkError(r, 429, "", "queue is full");
    CHECK_EQ(r.error["error"]["code"].get<std::string>(), std::string("queue_full"));
    CHECK(!r.retryAfter.empty() && std::stoi(r.retryAfter) >= 1);
    rig.gate->open();
    holder.join();
    CHECK_EQ(send(rig, R"({"prompt":"关于吉祥的春联","best_of":1})").status, 200);
    // Larger than the whole queue (3 sampled candidates): it runs when nothing else does.
    CHECK(waitUntil([&] { return rig.engine->stats().outstanding == 0; }));
    const Reply big = send(rig, R"({"prompt":"关于吉祥的春联","n":2,"best_of":4})");
    CHECK_EQ(big.status, 200);
}

COUPLET_TEST(slowRequestsTimeOut)
{
    ServerOptions options;
    options.timeoutSeconds = 0.3;
    ServerRig rig(ServerRig::defaultEngine(), options);
    rig.gate->close();
    const Reply r = send(rig, kLongCouplet);
    checkError(r, 504, "", "timeout");
    rig.gate->open();
    CHECK(waitUntil([&] { return rig.engine->stats().outstanding == 0; }));
    CHECK_EQ(rig.engine->stats().cancelled, kRerankPool);   // every sampled candidate of the one couplet
}
