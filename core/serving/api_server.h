#pragma once

#include <memory>
#include <string>

namespace couplet {

class CompletionEngine;
class ServingMetrics;

struct ServerOptions {
    std::string host = "127.0.0.1"; // loopback unless asked otherwise
    int port = 8000;                // 0 = any free port
    std::string apiKey;             // non-empty: requests need "Authorization: Bearer KEY"
    double timeoutSeconds = 120;    // per request, queue time included
    int threads = 0;                // HTTP threads; 0 = enough for every slot and queue place
    int keepAliveSeconds = 5;       // an idle connection is closed after this; stop() may wait as long
};

// The OpenAI-compatible HTTP front end over one engine (cpp-httplib): `couplet
// serve`'s ServingEngine or the desktop app's engine thread.
// POST /v1/completions, POST /v1/chat/completions, GET /v1/models, GET /health
// and GET /metrics. Handlers only parse, validate, enqueue and stream back.
class ApiServer {
public:
    ApiServer(CompletionEngine& engine, ServingMetrics& metrics, ServerOptions options);
    ~ApiServer();
    ApiServer(const ApiServer&) = delete;
    ApiServer& operator=(const ApiServer&) = delete;

    // Binds and serves on a background thread; returns the port. Throws
    // std::runtime_error naming host:port when it cannot bind.
    int start();
    // Ends open requests (their sequences are cancelled) and closes every connection.
    void stop();
    int port() const;
    std::string url() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace couplet
