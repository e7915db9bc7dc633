#pragma once

#include "redis_connection.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace couplet {

// What `couplet cluster status` shows: the live workers (their heartbeats),
// the jobs being run with their queue depths, the jobs that finished
// recently (newest first, while their hash lasts: a day), and the dead letters.
struct ClusterStatus {
    struct Worker {
        std::string name;
        std::string json;    // the heartbeat as the worker wrote it
        std::int64_t ttlSeconds = 0;
    };
    struct Job {
        std::string key;
        std::map<std::string, std::string> fields;   // the job hash
        std::int64_t queued = 0;    // rows in the rows stream (delivered or not)
        std::int64_t pending = 0;   // delivered to a worker, not acknowledged
        std::int64_t results = 0;   // results not yet collected by the producer
        bool finished = false;      // one of the recently finished jobs
    };
    std::vector<Worker> workers;
    std::vector<Job> jobs;          // running ones first, then finished ones
    std::int64_t deadLetters = 0;
    std::vector<std::map<std::string, std::string>> lastDeadLetters;   // newest first, a few

    static ClusterStatus read(RedisConnection& redis, int deadLetterSamples = 5, int finishedJobs = 10);
    int runningJobs() const;
};

} // namespace couplet
