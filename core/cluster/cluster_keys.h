#pragma once

// The stream protocol: every key the producer and the workers share.
//
//   couplet:jobs                   set of job keys being run
//   couplet:jobs:finished          sorted set of finished job keys by finish time
//                                  (seconds since the epoch), for `cluster status`; a day
//   couplet:job:{K}                hash: model (model id), input, output, producer,
//                                  total, done, duplicates, rows_per_s, state, finished_at,
//                                  refused:{worker} (why that worker refused)
//   couplet:job:{K}:rows           stream of rows to generate, consumer group
//                                  "workers"; entry: row (record number), spec (JSON)
//   couplet:job:{K}:results        stream of results; entry: row, status, upper, lower,
//                                  hengpi, score, seed, error, model, latency_ms, worker
//   couplet:job:{K}:queued         set of rows enqueued and not yet in the producer's
//                                  journal: the in-flight window, kept across a producer restart
//   couplet:job:{K}:errors         hash row -> last error, for rows that failed and are retried
//   couplet:dead                   dead-letter stream: job, row, deliveries, error, spec
//   couplet:worker:{name}          heartbeat (string, JSON, with a TTL)
//
// A worker acknowledges (XACK) and deletes (XDEL) a row only in the same
// transaction that adds its result, so a row is never lost: it is either in
// the rows stream (delivered or not, pending or not) or its result is in the
// results stream. The producer deletes a result once its journal holds it.
// Redis thus holds about the in-flight window of rows, never the whole input.

#include <string>

namespace couplet::cluster {

inline constexpr const char* kGroup = "workers";
inline constexpr const char* kJobsSet = "couplet:jobs";
inline constexpr const char* kFinishedJobsSet = "couplet:jobs:finished";
inline constexpr const char* kDeadLetter = "couplet:dead";
inline constexpr const char* kWorkerPrefix = "couplet:worker:";

inline std::string jobKey(const std::string& job) { return "couplet:job:" + job; }
inline std::string rowsKey(const std::string& job) { return jobKey(job) + ":rows"; }
inline std::string resultsKey(const std::string& job) { return jobKey(job) + ":results"; }
inline std::string queuedKey(const std::string& job) { return jobKey(job) + ":queued"; }
inline std::string errorsKey(const std::string& job) { return jobKey(job) + ":errors"; }
inline std::string workerKey(const std::string& name) { return kWorkerPrefix + name; }

} // namespace couplet::cluster
