#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace couplet {
class ServingEngine;
}

namespace couplet::bench {

// One load shape, over HTTP and (when compared) the same load in-process.
struct HttpLoadPoint {
    std::string shape;           // "array" (one client, N prompts a request) or "clients" (N clients, 1 prompt each)
    int size = 0;
    int requests = 0;
    int couplets = 0;
    int failed = 0;
    std::string firstError;      // the first failure's reason
    double seconds = 0;
    double coupletsPerSecond = 0;
    double p50Ms = 0, p95Ms = 0, p99Ms = 0; // request sent -> last byte
    double ttftP50Ms = 0, ttftP95Ms = 0;    // request sent -> first streamed text
    double inProcessCoupletsPerSecond = 0;  // 0 when not compared
    double inProcessP50Ms = 0;
    double ratio = 0;                       // HTTP / in-process couplets per second
};

// What one request of a load did, in milliseconds from its start.
struct LoadSample {
    bool ok = false;
    double firstTextMs = 0;
    double totalMs = 0;
    std::string error; // why it failed
};

// Sends one request of the given prompts and waits for all of it. One sender
// per client thread (it may hold a connection).
using LoadSender = std::function<LoadSample(const std::vector<std::string>& prompts, std::uint64_t seed)>;
using LoadSenderFactory = std::function<LoadSender()>;

// `couplet bench --http URL`: prompt arrays from one client and many
// concurrent clients sending single prompts, all streamed, measured from the
// client side.
class HttpBench {
public:
    // Senders that POST /v1/completions with stream: true to `url`.
    static LoadSenderFactory httpSenders(const std::string& url, const std::string& apiKey);
    // Senders that submit the same prompts straight to an engine (no HTTP, no JSON).
    static LoadSenderFactory engineSenders(ServingEngine& engine);
    // The prompts of a load: 关于<theme>的七言春联, themes cycling.
    static std::vector<std::string> prompts(int count, int offset);
    // One client, `requests` requests of `arraySize` prompts, one after another.
    static HttpLoadPoint arrays(const LoadSenderFactory& senders, int arraySize, int requests);
    // `clients` threads, each `requests` single-prompt requests one after another.
    static HttpLoadPoint clients(const LoadSenderFactory& senders, int clients, int requests);
    // Adds the in-process figures of the same point to `http`.
    static void compare(HttpLoadPoint& http, const HttpLoadPoint& inProcess);

    static void printTable(const std::vector<HttpLoadPoint>& points, const std::string& url, std::ostream& out);
    static void writeJson(const std::vector<HttpLoadPoint>& points, const std::string& url, const std::string& path);
};

} // namespace couplet::bench
