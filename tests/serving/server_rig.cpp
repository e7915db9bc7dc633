#include "server_rig.h"

#include "tiny_model.h"

#include "couplet_model.h"
#include "couplet_model_generator.h"
#include "served_model.h"

#include <fstream>
#include <thread>

namespace couplet::testing {

ServerRig::ServerRig(ServingSettings engineSettings, ServerOptions options) : dir(freshTempDir("serving"))
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
    engine = std::make_unique<ServingEngine>(*gate, ServedModel{ModelCard::read(dir / "tiny"), std::make_shared<CoupletModelGenerator>(model)}, engineSettings,
                                             &metrics);
    options.port = 0;
    server = std::make_unique<ApiServer>(*engine, metrics, options);
    port = server->start();
}

ServerRig::~ServerRig()
{
    gate->open();
    server.reset();
    engine.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

ServingSettings ServerRig::defaultEngine()
{
    ServingSettings s;
    s.scheduler.maxBatch = 8;
    s.scheduler.maxWaitMs = 2;
    s.maxQueue = 32;
    return s;
}

httplib::Client ServerRig::client() const
{
    httplib::Client c("127.0.0.1", port);
    c.set_read_timeout(60, 0);
    return c;
}

bool waitUntil(const std::function<bool()>& done, std::chrono::seconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

} // namespace couplet::testing
