#include "check.h"
#include "server_rig.h"

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace couplet;
using namespace couplet::testing;

namespace {

// A nine-character couplet with three candidates (best_of = n: each streams
// live as the choice it is) needs ~25 decode steps each.
// The gate lets the first step through (an interactive request's first step
// prefills and decodes once; its text is delivered when the step ends) and
// holds the second.
const std::string kRequest = R"({"prompt":"关于吉祥的春联","n":3,"best_of":3,"couplet":{"length":9}})";

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

// Sends one HTTP request on a plain socket, to close it when the test says.
class RawClient {
public:
    RawClient(int port, const std::string& body)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<std::uint16_t>(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        CHECK(::connect(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        const std::string request = "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                    "Content-Type: application/json\r\nContent-Length: "
                                    + std::to_string(body.size()) + "\r\n\r\n" + body;
        CHECK_EQ(::send(m_fd, request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()));
    }
    ~RawClient() { ::close(m_fd); }
    RawClient(const RawClient&) = delete;
    RawClient& operator=(const RawClient&) = delete;

private:
    int m_fd = -1;
};

COUPLET_TEST(disconnectDuringAWholeResponseCancelsItsSequences)
{
    ServerRig rig;
    rig.gate->close(1);
    {
        // The client hangs up while the engine waits at the gate, mid-couplet.
        RawClient client(rig.port, kRequest);
        CHECK(rig.gate->waitUntilHeld(std::chrono::seconds(30)));
    }
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
        req.body = R"({"prompt":"关于吉祥的春联","n":3,"best_of":3,"stream":true,"couplet":{"length":9}})";
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
