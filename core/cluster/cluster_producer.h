#pragma once

#include "bulk_job.h"
#include "bulk_journal.h"
#include "redis_row_generator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace couplet {

// The producer of a bulk job whose rows `couplet worker`s generate: the same
// BulkJob, journal and output as a local job over a RedisRowGenerator. Used
// by `couplet batch --redis` and by the desktop app's bulk dialog ("Run on:
// workers at redis://…"). Driven by one thread: job().start(), attach(),
// then step() until it returns false, then finish() when the job finished.
// A Redis fault inside any call is retried by the connection (its stop
// condition ends that with RedisStopped; the job can then be resumed).
class ClusterProducer {
public:
    ClusterProducer(RedisConnection& redis, std::string modelId, const BulkJobOptions& options, BulkJournal& journal);

    BulkJob& job() { return m_job; }
    const BulkJob& job() const { return m_job; }
    const RedisRowGenerator& generator() const { return m_generator; }
    const std::string& modelId() const { return m_modelId; }

    // After job().start(): creates the job in Redis, or takes it up again.
    void attach();
    // One step of the job, then (once a second) its figures into the job's
    // hash; refusals by workers seen for the first time are appended to
    // `refusals`. False once the job is over.
    bool step(std::vector<std::string>& refusals);
    // The figures and refusals part of step(), for a caller that steps the job itself.
    void publish(std::vector<std::string>& refusals);
    // The job finished: its streams go, its hash stays a day for `cluster status`.
    void finish();

    // Stable over resumes (the journal's job id and creation time) and
    // unique between producers on different machines (the host name).
    static std::string jobKeyFor(const BulkJournal& journal, std::int64_t journalJob);

private:
    BulkJournal& m_journal;
    std::string m_input;
    std::string m_output;
    std::string m_modelId;
    RedisRowGenerator m_generator;
    BulkJob m_job;
};

} // namespace couplet
