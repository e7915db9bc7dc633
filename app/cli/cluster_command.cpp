// `couplet cluster status`: what the workers and the producers in one Redis are doing.

#include "commands.h"

#include "cluster_status.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace couplet::cli {
namespace {

void printHelp()
{
    std::cout << "couplet cluster status --redis redis://HOST:PORT[/DB] [--json]\n"
                 "Lists the live workers (name, device, model, batch, rows/s, state), the jobs being run\n"
                 "(rows done of total, rows queued, pending at a worker, results not yet collected,\n"
                 "duplicates, refusals), the jobs that finished in the last day (the newest 10, marked\n"
                 "finished) and the dead-letter rows with their errors.\n";
}

nlohmann::json toJson(const ClusterStatus& status)
{
    nlohmann::json workers = nlohmann::json::array();
    for (const auto& w : status.workers) {
        nlohmann::json beat = nlohmann::json::parse(w.json, nullptr, false);
        if (beat.is_discarded()) beat = {{"name", w.name}};
        beat["ttl_s"] = w.ttlSeconds;
        workers.push_back(beat);
    }
    nlohmann::json jobs = nlohmann::json::array();
    for (const auto& j : status.jobs) {
        nlohmann::json job(j.fields);
        job["key"] = j.key;
        job["queued"] = j.queued;
        job["pending"] = j.pending;
        job["results"] = j.results;
        job["finished"] = j.finished;
        jobs.push_back(job);
    }
    return {{"workers", workers}, {"jobs", jobs}, {"dead_letters", status.deadLetters},
            {"last_dead_letters", status.lastDeadLetters}};
}

std::string field(const std::map<std::string, std::string>& m, const std::string& key)
{
    const auto it = m.find(key);
    return it == m.end() ? "-" : it->second;
}

void printText(const nlohmann::json& j, const ClusterStatus& status)
{
    std::printf("workers: %zu live\n", status.workers.size());
    for (const auto& w : j["workers"])
        std::printf("  %-24s %-10s %-14s batch %-4d %7.1f rows/s  %s\n  %24s model %s\n",
                    w.value("name", "?").c_str(), w.value("state", "?").c_str(), w.value("host", "?").c_str(),
                    w.value("batch", 0), w.value("rows_per_s", 0.0), w.value("device", "?").c_str(), "",
                    w.value("model", "?").c_str());
    std::printf("jobs: %d running, %d recently finished\n", status.runningJobs(),
                static_cast<int>(status.jobs.size()) - status.runningJobs());
    for (const auto& job : status.jobs) {
        std::printf("  %s%s: %s of %s rows done, %lld queued, %lld pending at workers, %lld results to collect, "
                    "%s duplicates, %s dead; %s rows/s\n    %s -> %s, model %s\n",
                    job.key.c_str(), job.finished ? " (finished)" : "", field(job.fields, "done").c_str(),
                    field(job.fields, "total").c_str(),
                    static_cast<long long>(job.queued), static_cast<long long>(job.pending),
                    static_cast<long long>(job.results), field(job.fields, "duplicates").c_str(),
                    field(job.fields, "dead").c_str(), field(job.fields, "rows_per_s").c_str(),
                    field(job.fields, "input").c_str(), field(job.fields, "output").c_str(),
                    field(job.fields, "model").c_str());
        for (const auto& [name, why] : job.fields)
            if (name.rfind("refused:", 0) == 0) std::printf("    refused by %s: %s\n", name.c_str() + 8, why.c_str());
    }
    std::printf("dead letters: %lld\n", static_cast<long long>(status.deadLetters));
    for (const auto& d : status.lastDeadLetters)
        std::printf("  job %s row %s after %s deliveries: %s\n", field(d, "job").c_str(), field(d, "row").c_str(),
                    field(d, "deliveries").c_str(), field(d, "error").c_str());
}

} // namespace

int runCluster(Args& args)
{
    const auto words = args.positional();
    if (args.flag("help") || words.empty()) {
        printHelp();
        return words.empty() && !args.has("help") ? 2 : 0;
    }
    if (words.size() != 1 || words.front() != "status")
        throw UsageError("unknown cluster command '" + words.front() + "' (there is: status)");
    const std::string url = args.value("redis");
    if (url.empty()) throw UsageError("give the queue with --redis redis://HOST:PORT");
    const bool json = args.flag("json");
    args.finish();
    RedisConnection redis(RedisUrl::parse(url), {});
    const ClusterStatus status = [&] {
        try {
            return ClusterStatus::read(redis);
        } catch (const RedisUnavailable& e) {
            throw std::runtime_error(std::string("cannot reach redis: ") + e.what());
        }
    }();
    const nlohmann::json j = toJson(status);
    if (json)
        std::cout << j.dump(2) << '\n';
    else
        printText(j, status);
    return 0;
}

} // namespace couplet::cli
