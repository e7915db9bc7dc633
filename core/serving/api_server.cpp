#include "api_server.h"

#include "api_error.h"
#include "completion_handler.h"
#include "completion_engine.h"
#include "serving_metrics.h"
#include "system_monitor.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <sys/socket.h>

#include <algorithm>
#include <csignal>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace couplet {
namespace {

using json = nlohmann::json;

std::string outcomeOf(int status)
{
    switch (status) {
    case 200: return "ok";
    case 400: return "invalid";
    case 401: return "unauthorized";
    case 404: return "not_found";
    case 413: return "too_large";
    case 429: return "queue_full";
    case 499: return "cancelled";
    case 504: return "timeout";
    default: return status >= 500 ? "failed" : "other";
    }
}

std::string endpointOf(const std::string& path)
{
    for (const char* known : {"/v1/completions", "/v1/chat/completions", "/v1/models", "/health", "/metrics"})
        if (path == known) return path;
    return path.rfind("/v1/models/", 0) == 0 ? "/v1/models" : "other";
}

// The body of an error httplib produced itself (404, 413, a request it could not read).
std::string defaultError(const httplib::Request& req, int status)
{
    if (status == 413)
        return ApiError(413, "invalid_request_error", "request body is larger than 1 MiB (" + std::to_string(kMaxBodyBytes) + " bytes)",
                        {}, "body_too_large").body();
    if (status == 404)
        return ApiError(404, "invalid_request_error", "no such endpoint: " + req.method + " " + req.path, {}, "not_found").body();
    return ApiError(status, status >= 500 ? "server_error" : "invalid_request_error",
                    "HTTP " + std::to_string(status) + " for " + req.method + " " + req.path).body();
}

// cpp-httplib 0.11 listens with a backlog of 5 connections (fixed when the
// library was built); 64 clients connecting at once overflow it, and the
// kernel drops their SYNs. listen() again on the bound socket widens it.
class WideBacklogServer : public httplib::Server {
public:
    void widenBacklog(int connections) { ::listen(svr_sock_, connections); }
};

constexpr int kBacklog = 1024;

} // namespace

struct ApiServer::Impl {
    CompletionEngine& engine;
    ServingMetrics& metrics;
    ServerOptions options;
    WideBacklogServer server;
    std::atomic<bool> stopping{false};
    CompletionHandler completions;
    std::mutex monitorMutex;
    SystemMonitor monitor;
    std::thread thread;
    int port = 0;

    Impl(CompletionEngine& e, ServingMetrics& m, ServerOptions o)
        : engine(e), metrics(m), options(std::move(o)),
          completions(e, m, std::chrono::milliseconds(static_cast<long long>(options.timeoutSeconds * 1000)), stopping)
    {
    }

    void routes();
    void hooks();
    bool authorized(const httplib::Request& req) const;
    std::string modelsBody() const;
    std::string healthBody() const;
    std::string metricsBody();
};

bool ApiServer::Impl::authorized(const httplib::Request& req) const
{
    if (options.apiKey.empty() || req.path == "/health") return true;
    return req.get_header_value("Authorization") == "Bearer " + options.apiKey;
}

std::string ApiServer::Impl::modelsBody() const
{
    json models = json::array();
    if (const auto loaded = engine.currentModel()) {
        const ModelCard& card = loaded->card;
        models.push_back({{"id", card.id}, {"object", "model"}, {"created", 0}, {"owned_by", "couplet-studio"},
                          {"name", card.name}, {"size", card.size}});
    }
    return json{{"object", "list"}, {"data", models}}.dump();
}

std::string ApiServer::Impl::healthBody() const
{
    const EngineGauges s = engine.gauges();
    const auto loaded = engine.currentModel();
    return json{{"status", loaded ? "ok" : "no_model"}, {"model", loaded ? loaded->card.id : ""}, {"running", s.running},
                {"waiting", s.waiting}, {"slots", s.slots}}.dump();
}

std::string ApiServer::Impl::metricsBody()
{
    const EngineGauges s = engine.gauges();
    SystemMonitor::Sample system;
    {
        std::lock_guard lock(monitorMutex);
        system = monitor.sample();
    }
    return metrics.exposition(s, system);
}

} // namespace couplet

namespace couplet {

void ApiServer::Impl::routes()
{
    server.Post("/v1/completions", [this](const httplib::Request& req, httplib::Response& res) {
        completions.handle(req, res, Endpoint::Completions);
    });
    server.Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
        completions.handle(req, res, Endpoint::Chat);
    });
    server.Get("/v1/models", [this](const httplib::Request&, httplib::Response& res) {
        res.set_content(modelsBody(), "application/json");
    });
    server.Get(R"(/v1/models/(.+))", [this](const httplib::Request& req, httplib::Response& res) {
        const auto loaded = engine.currentModel();
        if (!loaded || req.matches[1] != loaded->card.id) {
            respondError(res, 404, ApiError(404, "invalid_request_error", "no model '" + std::string(req.matches[1]) + "'",
                                            "model", "model_not_found").body());
            return;
        }
        res.set_content(json::parse(modelsBody())["data"][0].dump(), "application/json");
    });
    server.Get("/health", [this](const httplib::Request&, httplib::Response& res) {
        res.set_content(healthBody(), "application/json");
    });
    server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
        res.set_content(metricsBody(), "text/plain; version=0.0.4");
    });
}

void ApiServer::Impl::hooks()
{
    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
        if (authorized(req)) return httplib::Server::HandlerResponse::Unhandled;
        res.set_header("WWW-Authenticate", "Bearer");
        respondError(res, 401, ApiError(401, "invalid_request_error",
                                        "missing or wrong API key: send the header Authorization: Bearer <key>", {},
                                        "invalid_api_key").body());
        return httplib::Server::HandlerResponse::Handled;
    });
    server.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        res.set_content(defaultError(req, res.status), "application/json");
        return httplib::Server::HandlerResponse::Handled;
    }));
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unknown error";
        try {
            std::rethrow_exception(ep);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        respondError(res, 500, ApiError(500, "server_error", "internal error: " + what).body());
    });
    server.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
        // Streams count themselves when they end.
        if (res.get_header_value("Content-Type") == "text/event-stream") return;
        metrics.countRequest(endpointOf(req.path), outcomeOf(res.status));
    });
}

ApiServer::ApiServer(CompletionEngine& engine, ServingMetrics& metrics, ServerOptions options)
    : m_impl(std::make_unique<Impl>(engine, metrics, std::move(options)))
{
    auto& impl = *m_impl;
    // A client that hangs up must fail a write, not end the process.
    std::signal(SIGPIPE, SIG_IGN);
    // Every slot and queue place may hold a connection while it waits.
    const int threads = impl.options.threads > 0 ? impl.options.threads : std::clamp(engine.capacity() + 8, 8, 512);
    impl.server.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
    impl.server.set_payload_max_length(kMaxBodyBytes);
    impl.server.set_tcp_nodelay(true);
    impl.server.set_keep_alive_timeout(impl.options.keepAliveSeconds);
    impl.routes();
    impl.hooks();
}

ApiServer::~ApiServer() { stop(); }

int ApiServer::start()
{
    auto& impl = *m_impl;
    const auto& o = impl.options;
    impl.port = o.port == 0 ? impl.server.bind_to_any_port(o.host) : (impl.server.bind_to_port(o.host, o.port) ? o.port : -1);
    if (impl.port <= 0) throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port));
    impl.server.widenBacklog(kBacklog);
    impl.thread = std::thread([&impl] { impl.server.listen_after_bind(); });
    // stop() is only heard once the accept loop runs; clients may connect before (the socket is bound).
    for (int i = 0; i < 5000 && !impl.server.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return impl.port;
}

void ApiServer::stop()
{
    auto& impl = *m_impl;
    if (!impl.thread.joinable()) return;
    impl.stopping = true;
    impl.server.stop();
    impl.thread.join();
}

int ApiServer::port() const { return m_impl->port; }

std::string ApiServer::url() const
{
    const std::string& host = m_impl->options.host;
    return "http://" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(m_impl->port);
}

} // namespace couplet
