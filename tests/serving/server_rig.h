#pragma once

#include "gated_decoder.h"

#include "api_server.h"
#include "serving_engine.h"

#include <httplib.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>

namespace couplet {
class CoupletModel;
}

namespace couplet::testing {

// A real server on a free loopback port over the tiny model, the real
// Scheduler and a gate in front of the decoder; stopped whatever the outcome.
// (The model's torch headers stay in server_rig.cpp.)
struct ServerRig {
    std::filesystem::path dir;
    std::shared_ptr<const CoupletModel> model;
    std::unique_ptr<Decoder> decoder;
    std::unique_ptr<GatedDecoder> gate;
    ServingMetrics metrics;
    std::unique_ptr<ServingEngine> engine;
    std::unique_ptr<ApiServer> server;
    int port = 0;

    explicit ServerRig(ServingSettings engineSettings = defaultEngine(), ServerOptions options = {});
    ~ServerRig();

    static ServingSettings defaultEngine();
    httplib::Client client() const;
};

// Waits until `done` holds, checking every few milliseconds, at most `timeout`.
bool waitUntil(const std::function<bool()>& done, std::chrono::seconds timeout = std::chrono::seconds(30));

} // namespace couplet::testing
