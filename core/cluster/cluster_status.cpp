#include "cluster_status.h"

#include "cluster_keys.h"
#include "stream_entry.h"

#include <algorithm>

namespace couplet {
namespace {

using namespace cluster;

std::vector<std::string> workerNames(RedisConnection& redis)
{
    std::vector<std::string> names;
    std::string cursor = "0";
    do {
        const RedisValue page =
            redis.command({"SCAN", cursor, "MATCH", std::string(kWorkerPrefix) + "*", "COUNT", "500"}).check("SCAN");
        cursor = page.elements.at(0).text;
        for (const RedisValue& key : page.elements.at(1).elements)
            names.push_back(key.text.substr(std::string(kWorkerPrefix).size()));
    } while (cursor != "0");
    return names;
}

ClusterStatus::Job readJob(RedisConnection& redis, const std::string& key)
{
    const auto replies = redis.pipeline({{"HGETALL", jobKey(key)},
                                         {"XLEN", rowsKey(key)},
                                         {"XPENDING", rowsKey(key), kGroup},
                                         {"XLEN", resultsKey(key)}});
    ClusterStatus::Job job{key, fieldMap(replies[0]), replies[1].integer, 0, replies[3].integer};
    if (!replies[2].isError() && !replies[2].elements.empty()) job.pending = replies[2].elements[0].integer;
    return job;
}

// The newest finished jobs whose hash is still there.
void readFinishedJobs(RedisConnection& redis, int count, std::vector<ClusterStatus::Job>& jobs)
{
    if (count <= 0) return;
    const RedisValue keys =
        redis.command({"ZREVRANGE", kFinishedJobsSet, "0", std::to_string(count - 1)}).check("ZREVRANGE");
    for (const RedisValue& key : keys.elements) {
        ClusterStatus::Job job = readJob(redis, key.text);
        if (job.fields.empty()) continue;   // expired
        job.finished = true;
        jobs.push_back(std::move(job));
    }
}

} // namespace

int ClusterStatus::runningJobs() const
{
    return static_cast<int>(std::count_if(jobs.begin(), jobs.end(), [](const Job& j) { return !j.finished; }));
}

ClusterStatus ClusterStatus::read(RedisConnection& redis, int deadLetterSamples, int finishedJobs)
{
    ClusterStatus status;
    for (const std::string& name : workerNames(redis)) {
        const auto replies = redis.pipeline({{"GET", workerKey(name)}, {"TTL", workerKey(name)}});
        if (replies[0].isNil()) continue;   // expired meanwhile
        status.workers.push_back({name, replies[0].text, replies[1].integer});
    }
    // The reply is kept: a range-for over check()'s result would outlive the temporary it refers to.
    const RedisValue running = redis.command({"SMEMBERS", kJobsSet}).check("SMEMBERS");
    for (const RedisValue& key : running.elements)
        status.jobs.push_back(readJob(redis, key.text));
    readFinishedJobs(redis, finishedJobs, status.jobs);
    status.deadLetters = redis.command({"XLEN", kDeadLetter}).check("XLEN").integer;
    const RedisValue last =
        redis.command({"XREVRANGE", kDeadLetter, "+", "-", "COUNT", std::to_string(deadLetterSamples)})
            .check("XREVRANGE");
    for (const StreamEntry& e : entryList(last, kDeadLetter)) status.lastDeadLetters.push_back(e.fields);
    return status;
}

} // namespace couplet
