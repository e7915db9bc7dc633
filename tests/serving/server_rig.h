#pragma once

#include "gated_decoder.h"
#include "tiny_model.h"

#include "api_server.h"
#include "couplet_model.h"
#include "engine_model.h"
#include "serving_engine.h"

#include <httplib.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <thread>

namespace couplet::testing {

// A real server on a free loopback port over the tiny model, the real
// Scheduler and a gate in front of the decoder; stopped whatever the outcome.
struct ServerRig {
    std::filesystem::path dir = freshTempDir("serving");
    std::shared_ptr<const CoupletModel> model;
    std::unique_ptr<Decoder> decoder;
    std::unique_ptr<GatedDecoder> gate;
    ServingMetrics metrics;
    std::unique_ptr<ServingEngine> engine;
    std::unique_ptr<ApiServer> server;
    int port = 0;

    explicit ServerRig(EngineSettings engineSettings = defaultEngine(), ServerOptions options = {})
    {
        writeTinyModel(dir / "tiny");
        std::ofstream(dir / "tiny" / "MODEL_CARD.md") << "# Tiny test model (`tests`)\n\n| | |\n|---|---|\n"
                                                        "| size | 0.1 M parameters: dim 32 |\n";
        DeviceOptions device;
        device.device = "cpu";
        device.threads = 1;
        model = CoupletModel::load(dir / "tiny", device);
        decoder = model->makeDecoder();
        gate = std::make_unique<GatedDecoder>(*decoder);
        engine = std::make_unique<ServingEngine>(*gate, engineModelOf(model, ModelCard::read(dir / "tiny")), engineSettings,
                                                 &metrics);
        options.port = 0;
        server = std::make_unique<ApiServer>(*engine, metrics, options);
        port = server->start();
    }

    ~ServerRig()
    {
        gate->open();
        server.reset();
        engine.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }

    static EngineSettings defaultEngine()
    {
        EngineSettings s;
        s.scheduler.maxBatch = 8;
        s.scheduler.maxWaitMs = 2;
        s.maxQueue = 32;
        return s;
    }

    httplib::Client client() const
    {
        httplib::Client c("127.0.0.1", port);
        c.set_read_timeout(60, 0);
        return c;
    }
};

// Waits until `done` holds, checking every few milliseconds, at most `timeout`.
inline bool waitUntil(const std::function<bool()>& done, std::chrono::seconds timeout = std::chrono::seconds(30))
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

} // namespace couplet::testing
