#pragma once

#include "redis_connection.h"
#include "row_codec.h"
#include "row_generator.h"
#include "scheduler_settings.h"
#include "stream_entry.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace couplet {

struct WorkerOptions {
    std::string name;                               // consumer name, unique in the cluster
    std::string device;                             // shown in the heartbeat, e.g. "cuda:0 (NVIDIA H200)"
    std::string modelId;                            // cluster::modelIdOf() of the loaded model
    int maxBatch = SchedulerSettings{}.maxBatch;    // rows in flight at most
    std::chrono::milliseconds claimIdle{30000};     // pending this long without an ack: a dead peer's row
    int maxDeliveries = 5;                          // a row delivered more often goes to the dead letters
    std::chrono::milliseconds block{200};           // XREADGROUP BLOCK while idle
    std::chrono::milliseconds heartbeatEvery{1000};
    std::chrono::seconds heartbeatTtl{10};
    std::chrono::milliseconds jobsEvery{1000};      // how often the job list is read
};

// Slot-like states, as in llama.cpp's server: the loop moves through them
// in order and says which one it is in (heartbeat, state()).
enum class WorkerState { Connecting, Reading, Generating, Acknowledging, Draining, Stopped };
const char* workerStateName(WorkerState state);

struct WorkerStats {
    std::uint64_t rowsWritten = 0;    // results added (ok or invalid)
    std::uint64_t rowsFailed = 0;     // failures left pending for a retry
    std::uint64_t reclaimed = 0;      // rows taken over from an idle consumer (XAUTOCLAIM)
    std::uint64_t deadLettered = 0;
    std::uint64_t jobsRefused = 0;
};

// A headless worker: reads rows of every job whose model matches its own
// from the jobs' streams as one consumer of the group, with COUNT equal to
// its free batch slots, generates them through its RowGenerator (the
// Scheduler over the model), and in one transaction per row adds the result,
// XACKs and XDELs the row: acknowledged only once the result is written.
// A row that fails is left pending with its error; whoever reclaims it
// after claimIdle tries again, until maxDeliveries, and then moves it to the
// dead letters with a failed result so that the job can finish.
// Single-threaded: run() drives both Redis and the generator.
class ClusterWorker {
public:
    ClusterWorker(RedisConnection& redis, RowGenerator& generator, WorkerOptions options,
                  RedisConnection::Logger log);
    ~ClusterWorker();
    ClusterWorker(const ClusterWorker&) = delete;
    ClusterWorker& operator=(const ClusterWorker&) = delete;

    // Returns once stop() was called and the rows in flight are written, or
    // when Redis stays away after stop() (their rows are reclaimed by peers).
    void run();
    // Safe from a signal handler or another thread: drain, then return.
    void stop() { m_stopRequested.store(true); }

    WorkerState state() const { return m_state.load(); }
    const WorkerStats& stats() const { return m_stats; }

private:
    struct Job {
        std::string key;
        std::string cursor = "0-0";   // XAUTOCLAIM's
    };
    struct InFlight {
        std::string job;
        std::string entryId;
        std::uint64_t row = 0;
        std::string spec;       // as it came, for the dead letters
        int deliveries = 1;     // this one included
    };
    struct Finished {
        InFlight source;
        RowResult result;
    };
    struct DeadRow {
        InFlight source;
        std::string error;
    };

    WorkerState connecting();
    WorkerState reading();
    WorkerState generating();
    WorkerState acknowledging();
    WorkerState draining();

    void refreshJobs(bool force);
    void considerJob(const std::string& key);
    void reclaim(int free);
    void readNew(int free);
    void take(const std::string& job, const StreamEntry& entry, int deliveries);
    void flushOutbox();
    void addResult(std::vector<RedisCommand>& out, const Finished& f);
    void addDeadLetter(std::vector<RedisCommand>& out, const DeadRow& dead);
    void heartbeat(bool force);
    int freeSlots() const;

    RedisConnection& m_redis;
    RowGenerator& m_generator;
    WorkerOptions m_options;
    RedisConnection::Logger m_log;
    std::atomic<bool> m_stopRequested{false};
    std::atomic<WorkerState> m_state{WorkerState::Connecting};
    WorkerStats m_stats;

    std::map<std::string, Job> m_jobs;    // accepted, by job key
    std::set<std::string> m_refused;
    std::map<std::uint64_t, InFlight> m_inFlight;
    std::uint64_t m_nextKey = 1;
    std::deque<Finished> m_outbox;        // finished, not yet written to Redis
    std::vector<DeadRow> m_deadOutbox;    // rows to move to the dead letters

    using Clock = std::chrono::steady_clock;
    Clock::time_point m_lastJobs{};
    Clock::time_point m_lastHeartbeat{};
    Clock::time_point m_lastClaim{};
    std::uint64_t m_rowsAtHeartbeat = 0;
    double m_rowsPerSecond = 0;
};

} // namespace couplet
