// `couplet batch --redis URL`: the producer. The job, its journal and output
// are the local bulk job's; the rows go to `couplet worker`s through Redis.

#include "batch_settings.h"

#include "cluster_keys.h"
#include "model_id.h"
#include "cluster_producer.h"

#include "couplet_model.h"

#include <chrono>
#include <cstdio>
#include <iostream>

namespace couplet::cli {
namespace {

constexpr auto kRatesEvery = std::chrono::seconds(5);

std::string formatRates(const RedisRowGenerator& generator, double totalRate)
{
    std::string line;
    for (const auto& w : generator.workerRates()) {
        char part[160];
        std::snprintf(part, sizeof part, "%s%s %.1f rows/s (%llu)", line.empty() ? "" : ", ", w.worker.c_str(),
                      w.rowsPerSecond, static_cast<unsigned long long>(w.rows));
        line += part;
    }
    char total[64];
    std::snprintf(total, sizeof total, "%stotal %.1f rows/s", line.empty() ? "" : "; ", totalRate);
    return line + total;
}

void printClusterStart(const BulkJob& job, const BatchSettings& s, const RedisRowGenerator& generator,
                       const std::string& modelId)
{
    const BulkProgress p = job.progress();
    std::cerr << "couplet batch: " << s.job.input.string() << " (" << encodingName(job.encoding()) << ", "
              << p.total << " rows) -> " << s.job.output.string() << '\n'
              << "  workers at " << s.redis << ", job " << generator.jobKey() << ", model " << modelId
              << ", at most " << s.job.maxInFlight << " rows queued\n";
    if (job.resumed())
        std::cerr << "  resuming job " << job.jobId() << ": " << p.done() << " rows already done\n";
}

void printClusterSummary(const BulkJob& job, const BatchSettings& s, const RedisRowGenerator& generator,
                         double seconds)
{
    printSummary(job, s, seconds);
    std::cerr << "  workers: " << formatRates(generator, job.progress().rowsPerSecond) << '\n';
    std::cerr << "  duplicates: " << generator.duplicates()
              << " results delivered more than once, written once\n";
}

} // namespace

int runClusterBatch(BatchSettings& s, Args& args)
{
    const RedisUrl url = RedisUrl::parse(s.redis);
    const std::filesystem::path modelDir = args.value("model", CoupletModel::defaultModelDir().string());
    args.finish();
    const std::string modelId = cluster::modelIdOf(modelDir);
    const auto posters = preparePosters(s);
    BulkJournal journal(s.journal);
    checkUnfinishedJob(journal, s);
    RedisConnection redis(url, {}, [](const std::string& line) { std::cerr << "couplet batch: " << line << '\n'; });
    redis.setStopCondition(interruptRequested);
    ClusterProducer producer(redis, modelId, s.job, journal);
    BulkJob& job = producer.job();
    const RedisRowGenerator& generator = producer.generator();
    const auto started = std::chrono::steady_clock::now();
    startJob(job, s);
    attachPosters(posters.get(), job, s);
    producer.attach();
    if (!s.quiet) printClusterStart(job, s, generator, modelId);
    auto lastRates = started;
    std::vector<std::string> refusals;
    const auto afterStep = [&] {
        producer.publish(refusals);
        for (const std::string& refusal : refusals) std::cerr << refusal << '\n';
        refusals.clear();
        if (s.quiet || std::chrono::steady_clock::now() - lastRates < kRatesEvery) return;
        lastRates = std::chrono::steady_clock::now();
        std::cerr << "  workers: " << formatRates(generator, job.progress().rowsPerSecond) << '\n';
    };
    bool finished = false;
    try {
        finished = drive(job, s, afterStep);
    } catch (const RedisStopped&) {
        job.cancel();
    }
    if (!finished) {
        if (posters) posters->stop();
        const BulkProgress p = job.progress();
        std::cerr << "\ninterrupted: " << p.done() << " of " << p.total
                  << " rows done; rows queued in Redis stay there; run the same command with --resume "
                     "to continue\n";
        return kExitInterrupted;
    }
    producer.finish();
    printClusterSummary(job, s, generator,
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    return reportPosters(posters.get(), s) ? 0 : 1;
}

} // namespace couplet::cli
