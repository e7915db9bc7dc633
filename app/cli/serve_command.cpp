#include "commands.h"
#include "model_options.h"

#include "api_server.h"
#include "couplet_model_generator.h"
#include "served_model.h"
#include "serving_engine.h"

#include <csignal>
#include <iostream>

namespace couplet::cli {
namespace {

void printHelp()
{
    std::cout << "couplet serve [--host 127.0.0.1] [--port 8000] [--api-key KEY] [--max-queue N] [--timeout S]\n"
                 "Serves the model over HTTP, shaped as OpenAI's API: POST /v1/completions and\n"
                 "/v1/chat/completions (streaming too), GET /v1/models, /health and /metrics (Prometheus).\n"
                 "Every request of every client meets in one scheduler: continuous batching across clients.\n"
                 "options:\n"
                 "  --host H           address to listen on (default 127.0.0.1: this machine only)\n"
                 "  --port N           TCP port (default 8000; 0 = any free port, printed)\n"
                 "  --api-key KEY      require 'Authorization: Bearer KEY' (default: $COUPLET_API_KEY, else none)\n"
                 "  --max-batch N      sequences decoded together (default " << SchedulerSettings{}.maxBatch << ")\n"
                 "  --max-queue N      couplets waiting beyond the running ones before 429 (default 256)\n"
                 "  --batch-window MS  wait this long for more requests when the engine is idle (default 5)\n"
                 "  --timeout S        seconds a request may take, queue included (default 120)\n"
              << modelOptionsHelp();
}

// SIGINT and SIGTERM are taken by sigwait() on the main thread, so every other thread inherits them blocked.
sigset_t stopSignals()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    return set;
}

} // namespace

int runServe(Args& args)
{
    if (args.flag("help")) {
        printHelp();
        return 0;
    }
    ServerOptions server;
    server.host = args.value("host", "127.0.0.1");
    server.port = args.integer("port", 8000);
    const char* envKey = std::getenv("COUPLET_API_KEY");
    server.apiKey = args.value("api-key", envKey != nullptr ? envKey : "");
    server.timeoutSeconds = args.number("timeout", 120);
    ServingSettings engine;
    engine.scheduler.maxBatch = args.integer("max-batch", SchedulerSettings{}.maxBatch);
    engine.maxQueue = args.integer("max-queue", 256);
    engine.scheduler.maxWaitMs = args.integer("batch-window", 5);
    if (server.port < 0 || server.port > 65535) throw UsageError("--port must be 0 to 65535");
    if (engine.scheduler.maxBatch < 1 || engine.maxQueue < 0 || server.timeoutSeconds <= 0 || engine.scheduler.maxWaitMs < 0)
        throw UsageError("--max-batch must be >= 1, --max-queue >= 0, --timeout > 0 and --batch-window >= 0");
    const std::filesystem::path dir = args.value("model", CoupletModel::defaultModelDir().string());
    auto model = loadModel(args);
    args.finish();

    const sigset_t signals = stopSignals();
    auto decoder = model->makeDecoder();
    ServingMetrics metrics;
    ServingEngine serving(*decoder, ServedModel{ModelCard::read(dir), std::make_shared<CoupletModelGenerator>(model)}, engine,
                          &metrics);
    ApiServer api(serving, metrics, server);
    api.start();
    std::cerr << "couplet serve: " << model->summary() << " on " << model->deviceName() << '\n'
              << "couplet serve: listening on " << api.url() << " (model id '" << serving.model().card.id << "'"
              << (server.apiKey.empty() ? "" : ", API key required") << "); Ctrl-C stops" << std::endl;
    int signal = 0;
    sigwait(&signals, &signal);
    std::cerr << "couplet serve: stopping" << std::endl;
    api.stop();
    return 0;
}

} // namespace couplet::cli
