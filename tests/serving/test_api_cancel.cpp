#include "check.h"
#include "server_rig.h"

#include <nlohmann/json.hpp>

using namespace couplet;
using namespace couplet::testing;

namespace {

// A nine-character couplet with three candidates needs ~25 decode steps each.
// The gate lets the first step through (an interactive request's first step
// prefills and decodes once; its text is delivered when the step ends) and
// holds the second.
const std::string kRequest = R"({"prompt":"关于吉祥的春联","n":3,"couplet":{"length":9}})";

// Once the client has gone and the server has told the engine, the gate opens:
// the step held at it is the last one that may run for the cancelled sequences.
void checkComputeStopped(ServerRig& rig, const std::string& outcome)
{
    CHECK(waitUntil([&] { return rig.metrics.requests("/v1/completions", outcome) == 1; }));
    const ServingStats held = rig.engine->stats();
    CHECK_EQ(held.running, 3);
    rig.gate->open();
    CHECK(waitUntil([&] { return rig.engine->stats().outstanding == 0; }));
    const ServingStats after = rig.engine->stats();
    CHECK_EQ(after.cancelled, 3);
    CHECK_EQ(after.cancelRequests, 1);
    CHECK_EQ(after.running, 0);
    CHECK(after.steps <= held.steps + 1); // freed within one step
    CHECK(after.decodedTokens <= held.decodedTokens + 3);
}

} // namespace

COUPLET_TEST(disconnectDuringAWholeResponseCancelsItsSequences)
{
    ServerRig rig;
    rig.gate->close(1);
    {
        httplib::Client client("127.0.0.1", rig.port);
        client.set_read_timeout(0, 200000); // gives up after 0.2 s and closes the connection
        const auto res = client.Post("/v1/completions", kRequest, "application/json");
        CHECK(!res);
    }
    CHECK(rig.gate->waitUntilHeld(std::chrono::seconds(30)));
    checkComputeStopped(rig, "cancelled");
}

COUPLET_TEST(disconnectDuringAStreamCancelsItsSequences)
{
    ServerRig rig;
    rig.gate->close(1);
    std::string received;
    {
        httplib::Client client("127.0.0.1", rig.port);
        client.set_read_timeout(30, 0);
        httplib::Request req;
        req.method = "POST";
        req.path = "/v1/completions";
        req.body = R"({"prompt":"关于吉祥的春联","n":3,"stream":true,"couplet":{"length":9}})";
        req.set_header("Content-Type", "application/json");
        // The first characters come from the prefill step. The client hangs up
        // only once the engine waits at the gate: hanging up earlier lets the
        // engine see the cancel before its next step, so nothing would be held.
        req.content_receiver = [&](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
            received.append(data, size);
            if (received.find("上联") == std::string::npos)
                return true;
            CHECK(rig.gate->waitUntilHeld(std::chrono::seconds(30)));
            return false;
        };
        client.send(req);
    }
    CHECK(received.find("data: ") != std::string::npos);
    CHECK(received.find("[DONE]") == std::string::npos);
    checkComputeStopped(rig, "cancelled");
}
