// `couplet worker`: a headless generator for bulk jobs queued in Redis.

#include "batch_settings.h"
#include "commands.h"
#include "model_options.h"

#include "cluster_worker.h"
#include "model_id.h"
#include "couplet_model_generator.h"
#include "scheduler_row_generator.h"

#include <csignal>
#include <iostream>
#include <unistd.h>

namespace couplet::cli {
namespace {

ClusterWorker* g_worker = nullptr;

void onStop(int)
{
    if (g_worker) g_worker->stop();   // an atomic store: safe in a handler
}

void printHelp()
{
    std::cout
        << "couplet worker --redis redis://HOST:PORT[/DB] [options]\n"
           "Generates rows of bulk jobs queued with 'couplet batch --redis' on any machine, until\n"
           "stopped (SIGTERM or Ctrl-C: rows in flight are finished and written first). Joins\n"
           "the consumer group of every job whose model is the one loaded here; a job for another\n"
           "model is refused, with a line in this log and in 'couplet cluster status'.\n"
           "Rows are read with COUNT = free batch slots, so the batch stays full; a result is\n"
           "acknowledged only once it is written; rows a dead worker left are taken over after\n"
           "--claim-idle-ms; a row that fails --max-deliveries times goes to the dead letters.\n"
           "\n"
           "options:\n"
           "  --redis URL            Redis to take rows from (required)\n"
           "  --name NAME            consumer name, unique in the cluster (default HOST-PID)\n"
           "  --max-batch N          sequences decoded together, and rows in flight at most\n"
           "                         (default " << SchedulerSettings{}.maxBatch << "; on a GPU take the batch size\n"
           "                         'couplet bench' finds best; --batch N is its old spelling)\n"
           "  --claim-idle-ms MS     take over rows pending this long elsewhere (default 30000)\n"
           "  --max-deliveries N     tries of a row before the dead letters (default 5)\n"
           "  --heartbeat-ttl S      seconds a silent worker stays listed (default 10)\n"
        << modelOptionsHelp();
}

std::string defaultName()
{
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return std::string(host) + "-" + std::to_string(::getpid());
}

WorkerOptions parseOptions(Args& args)
{
    WorkerOptions o;
    o.name = args.value("name", defaultName());
    if (o.name.find_first_of(" \t\n") != std::string::npos) throw UsageError("--name must not contain spaces");
    o.maxBatch = args.integer("max-batch", args.integer("batch", SchedulerSettings{}.maxBatch));
    if (o.maxBatch < 1) throw UsageError("--max-batch must be at least 1");
    o.claimIdle = std::chrono::milliseconds(args.integer("claim-idle-ms", 30000));
    if (o.claimIdle.count() < 1) throw UsageError("--claim-idle-ms must be at least 1");
    o.maxDeliveries = args.integer("max-deliveries", 5);
    if (o.maxDeliveries < 1) throw UsageError("--max-deliveries must be at least 1");
    o.heartbeatTtl = std::chrono::seconds(args.integer("heartbeat-ttl", 10));
    if (o.heartbeatTtl.count() < 1) throw UsageError("--heartbeat-ttl must be at least 1");
    return o;
}

} // namespace

int runWorker(Args& args)
{
    if (args.flag("help")) {
        printHelp();
        return 0;
    }
    const std::string redisText = args.value("redis");
    if (redisText.empty()) throw UsageError("give the queue with --redis redis://HOST:PORT");
    const RedisUrl url = RedisUrl::parse(redisText);
    WorkerOptions options = parseOptions(args);
    const std::filesystem::path modelDir = args.value("model", CoupletModel::defaultModelDir().string());
    auto model = loadModel(args);
    args.finish();
    options.modelId = cluster::modelIdOf(modelDir);
    options.device = model->deviceName();
    const auto log = [name = options.name](const std::string& line) {
        std::cerr << "couplet worker " << name << ": " << line << std::endl;
    };
    auto decoder = model->makeDecoder();
    SchedulerSettings settings;
    settings.maxBatch = options.maxBatch;
    settings.maxWaitMs = 0;   // rows wait in Redis, not here
    Scheduler scheduler(*decoder, settings);
    const CoupletModelGenerator couplets(model);
    SchedulerRowGenerator generator(scheduler, couplets, modelNameOf(modelDir));
    RedisConnection redis(url, {}, log);
    ClusterWorker worker(redis, generator, options, log);
    log("model " + options.modelId + " on " + options.device + ", batch " + std::to_string(options.maxBatch)
        + ", queue " + url.toString());
    g_worker = &worker;
    std::signal(SIGTERM, onStop);
    std::signal(SIGINT, onStop);
    worker.run();
    g_worker = nullptr;
    const WorkerStats& st = worker.stats();
    log("stopped: " + std::to_string(st.rowsWritten) + " rows written, " + std::to_string(st.reclaimed)
        + " reclaimed, " + std::to_string(st.deadLettered) + " dead-lettered, " + std::to_string(st.jobsRefused)
        + " jobs refused");
    return 0;
}

} // namespace couplet::cli
