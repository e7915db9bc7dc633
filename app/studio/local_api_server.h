#pragma once

#include "settings/api_server_settings.h"

#include "engine_stats.h"

#include <QString>

#include <memory>

namespace couplet {

class ApiBridge;
class ApiServer;
class EngineController;
class ServingMetrics;

// The app's local OpenAI-compatible server: `couplet serve`'s ApiServer over
// the app's own engine (ApiBridge). Lives on the GUI thread; the HTTP
// threads are ApiServer's. stop() (and the destructor) ends every open
// request and stream and closes the connections before it returns.
class LocalApiServer {
public:
    // HTTP threads: each open request holds one.
    static constexpr int kThreads = 32;
    // Sequences waiting or running for API clients; more get 429.
    static constexpr int kMaxOutstanding = 256;
    // An idle keep-alive connection closes after this, so stopping never waits long.
    static constexpr int kKeepAliveSeconds = 1;

    explicit LocalApiServer(EngineController& engine);
    ~LocalApiServer();

    // Stops a running server, then listens with `settings`; "" when it
    // listens, else what went wrong, for the settings dialog.
    QString start(const ApiServerSettings& settings);
    void stop();
    bool isRunning() const { return m_server != nullptr; }
    int port() const;
    // The engine's figures for /health and /metrics (about once a second).
    void updateGauges(const EngineStats& stats);

private:
    std::shared_ptr<ServingMetrics> m_metrics;
    std::unique_ptr<ApiBridge> m_bridge;
    std::unique_ptr<ApiServer> m_server;
};

} // namespace couplet
