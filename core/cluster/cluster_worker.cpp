#include "cluster_worker.h"

#include "cluster_keys.h"
#include "model_id.h"

#include <nlohmann/json.hpp>

#include <thread>
#include <unistd.h>

namespace couplet {
namespace {

using namespace cluster;

constexpr int kMaxPollsPerTurn = 8;

std::string hostName()
{
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    return name;
}

} // namespace

const char* workerStateName(WorkerState state)
{
    switch (state) {
    case WorkerState::Connecting: return "connecting";
    case WorkerState::Reading: return "reading";
    case WorkerState::Generating: return "generating";
    case WorkerState::Acknowledging: return "acknowledging";
    case WorkerState::Draining: return "draining";
    case WorkerState::Stopped: return "stopped";
    }
    return "unknown";
}

ClusterWorker::ClusterWorker(RedisConnection& redis, RowGenerator& generator, WorkerOptions options,
                             RedisConnection::Logger log)
    : m_redis(redis)
    , m_generator(generator)
    , m_options(std::move(options))
    , m_log(std::move(log))
{
    m_options.maxBatch = std::max(1, m_options.maxBatch);
    m_options.maxDeliveries = std::max(1, m_options.maxDeliveries);
    m_redis.setStopCondition([this] { return m_stopRequested.load(); });
}

ClusterWorker::~ClusterWorker()
{
    if (!m_inFlight.empty()) m_generator.cancelAll();
}

void ClusterWorker::run()
{
    WorkerState state = WorkerState::Connecting;
    try {
        while (state != WorkerState::Stopped) {
            if (m_stopRequested.load() && state == WorkerState::Reading) {
                m_log("draining: " + std::to_string(m_inFlight.size()) + " rows in flight");
                state = WorkerState::Draining;
            }
            m_state.store(state);
            switch (state) {
            case WorkerState::Connecting: state = connecting(); break;
            case WorkerState::Reading: state = reading(); break;
            case WorkerState::Generating: state = generating(); break;
            case WorkerState::Acknowledging: state = acknowledging(); break;
            case WorkerState::Draining: state = draining(); break;
            case WorkerState::Stopped: break;
            }
        }
    } catch (const RedisStopped&) {
        m_log("stopped while redis was away: " + std::to_string(m_inFlight.size() + m_outbox.size())
              + " rows not written; peers reclaim them");
    }
    m_state.store(WorkerState::Stopped);
}

WorkerState ClusterWorker::connecting()
{
    m_redis.retrying([](RedisConnection& r) { r.command({"PING"}).check("PING"); });
    refreshJobs(true);
    heartbeat(true);
    return WorkerState::Reading;
}

WorkerState ClusterWorker::reading()
{
    refreshJobs(false);
    const int free = freeSlots();
    if (free > 0 && !m_jobs.empty()) {
        reclaim(free);
        readNew(freeSlots());
    } else if (m_inFlight.empty()) {
        // No job to read from: wait for one, a slice at a time so that stop() is seen.
        const auto until = Clock::now() + m_options.jobsEvery;
        while (Clock::now() < until && !m_stopRequested.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return m_inFlight.empty() ? WorkerState::Acknowledging : WorkerState::Generating;
}

WorkerState ClusterWorker::generating()
{
    for (int i = 0; i < kMaxPollsPerTurn && !m_inFlight.empty(); ++i) {
        m_generator.poll();
        if (!m_outbox.empty() && freeSlots() > 0) break;   // refill the batch soon
    }
    return WorkerState::Acknowledging;
}

WorkerState ClusterWorker::acknowledging()
{
    flushOutbox();
    heartbeat(false);
    return WorkerState::Reading;
}

WorkerState ClusterWorker::draining()
{
    while (!m_inFlight.empty()) m_generator.poll();
    flushOutbox();
    m_redis.retrying([this](RedisConnection& r) { r.command({"DEL", workerKey(m_options.name)}); });
    return WorkerState::Stopped;
}

int ClusterWorker::freeSlots() const
{
    return m_options.maxBatch - static_cast<int>(m_inFlight.size());
}

void ClusterWorker::refreshJobs(bool force)
{
    if (!force && Clock::now() - m_lastJobs < m_options.jobsEvery) return;
    m_lastJobs = Clock::now();
    const RedisValue members = m_redis.retrying([](RedisConnection& r) {
        return r.command({"SMEMBERS", kJobsSet}).check("SMEMBERS " + std::string(kJobsSet));
    });
    std::set<std::string> live;
    for (const RedisValue& m : members.elements) {
        live.insert(m.text);
        if (!m_jobs.count(m.text) && !m_refused.count(m.text)) considerJob(m.text);
    }
    for (auto it = m_jobs.begin(); it != m_jobs.end();)
        it = live.count(it->first) ? std::next(it) : m_jobs.erase(it);
}

// A job asks for one model; a worker with another one says so, once, in its
// log and in the job's hash (where the producer and `cluster status` see
// it), and never reads the job's rows.
void ClusterWorker::considerJob(const std::string& key)
{
    const RedisValue model = m_redis.retrying([&](RedisConnection& r) {
        return r.command({"HGET", jobKey(key), "model"}).check("HGET");
    });
    if (model.isNil()) return;   // being created or already gone
    if (modelHashOf(model.text) == modelHashOf(m_options.modelId)) {
        m_jobs[key] = Job{key};
        m_log("joined job " + key + " (model " + model.text + ")");
        return;
    }
    const std::string why = "job wants model " + model.text + ", this worker has " + m_options.modelId;
    m_log("refusing job " + key + ": " + why);
    m_refused.insert(key);
    ++m_stats.jobsRefused;
    m_redis.retrying([&](RedisConnection& r) {
        r.command({"HSET", jobKey(key), "refused:" + m_options.name, why}).check("HSET");
    });
}

// Rows that a consumer left pending longer than claimIdle (it died, or the
// row failed there) are taken over; each claim counts as a delivery.
void ClusterWorker::reclaim(int free)
{
    const auto every = std::max(std::chrono::milliseconds(100), m_options.claimIdle / 2);
    if (Clock::now() - m_lastClaim < every) return;
    m_lastClaim = Clock::now();
    for (auto& [key, job] : m_jobs) {
        if (free <= 0) break;
        const std::string rows = rowsKey(key);
        const RedisValue reply = m_redis.retrying([&](RedisConnection& r) {
            return r.command({"XAUTOCLAIM", rows, kGroup, m_options.name,
                              std::to_string(m_options.claimIdle.count()), job.cursor, "COUNT",
                              std::to_string(free)});
        });
        if (reply.isError() || reply.elements.size() < 2) continue;   // NOGROUP: the job ended
        job.cursor = reply.elements[0].text;
        const std::vector<StreamEntry> entries = entryList(reply.elements[1], rows);
        if (entries.empty()) continue;
        std::vector<RedisCommand> pending;
        for (const StreamEntry& e : entries)
            pending.push_back({"XPENDING", rows, kGroup, e.id, e.id, "1", m_options.name});
        const auto counts = m_redis.retrying([&](RedisConnection& r) { return r.pipeline(pending); });
        m_log("took over " + std::to_string(entries.size()) + " rows of job " + key + " idle for more than "
              + std::to_string(m_options.claimIdle.count()) + " ms");
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const RedisValue& c = counts[i];
            const int deliveries = c.elements.empty() || c.elements[0].elements.size() < 4
                ? m_options.maxDeliveries
                : static_cast<int>(c.elements[0].elements[3].integer);
            ++m_stats.reclaimed;
            take(key, entries[i], deliveries);
            --free;
        }
    }
}

void ClusterWorker::readNew(int free)
{
    if (free <= 0 || m_jobs.empty()) return;
    const int count = std::max(1, free / static_cast<int>(m_jobs.size()));
    RedisCommand command{"XREADGROUP", "GROUP", kGroup, m_options.name, "COUNT", std::to_string(count)};
    if (m_inFlight.empty()) {
        command.push_back("BLOCK");
        command.push_back(std::to_string(m_options.block.count()));
    }
    command.push_back("STREAMS");
    std::map<std::string, std::string> jobOfStream;
    for (const auto& [key, job] : m_jobs) {
        command.push_back(rowsKey(key));
        jobOfStream[rowsKey(key)] = key;
    }
    for (std::size_t i = 0; i < m_jobs.size(); ++i) command.push_back(">");
    const RedisValue reply = m_redis.retrying([&](RedisConnection& r) { return r.command(command); });
    if (reply.isError()) {   // NOGROUP: a job ended and its stream is gone
        refreshJobs(true);
        return;
    }
    for (const StreamEntry& e : streamEntries(reply)) take(jobOfStream[e.stream], e, 1);
}

void ClusterWorker::take(const std::string& job, const StreamEntry& entry, int deliveries)
{
    InFlight source{job, entry.id, 0, {}, deliveries};
    try {
        source.row = rowOf(entry);
        source.spec = entry.field("spec");
    } catch (const RedisError& e) {
        m_deadOutbox.push_back({source, std::string("malformed row: ") + e.what()});
        return;
    }
    if (deliveries > m_options.maxDeliveries) {
        const RedisValue error = m_redis.retrying([&](RedisConnection& r) {
            return r.command({"HGET", errorsKey(job), std::to_string(source.row)});
        });
        m_deadOutbox.push_back({source, error.isNil() ? "the workers that took it stopped before finishing it" : error.text});
        return;
    }
    PromptRow row;
    row.recordNumber = source.row;
    try {
        row.spec = specFromJson(source.spec);
    } catch (const std::invalid_argument& e) {
        m_deadOutbox.push_back({source, e.what()});
        return;
    }
    const std::uint64_t key = m_nextKey++;
    m_inFlight.emplace(key, std::move(source));
    m_generator.submit(row, [this, key](RowResult result) {
        const auto it = m_inFlight.find(key);
        if (it == m_inFlight.end()) return;
        m_outbox.push_back({std::move(it->second), std::move(result)});
        m_inFlight.erase(it);
    });
}

// One round trip and one MULTI for everything finished since the last one:
// each row's result, XACK and XDEL go together, so a row is acknowledged
// only with its result written, and the producer (blocked in XREAD) wakes
// once for the lot rather than once per row. Resent whole after an outage:
// a transaction that did run then adds second results, which the producer
// counts and drops.
void ClusterWorker::flushOutbox()
{
    if (m_outbox.empty() && m_deadOutbox.empty()) return;
    std::vector<RedisCommand> commands{{"MULTI"}};
    for (const Finished& f : m_outbox) {
        if (f.result.status != RowStatus::Failed) {
            addResult(commands, f);
        } else if (f.source.deliveries >= m_options.maxDeliveries) {
            m_deadOutbox.push_back({f.source, f.result.error});
        } else {
            // Left pending: after claimIdle a worker (maybe this one) tries again.
            commands.push_back({"HSET", errorsKey(f.source.job), std::to_string(f.source.row), f.result.error});
            ++m_stats.rowsFailed;
            m_log("row " + std::to_string(f.source.row) + " of job " + f.source.job + " failed (delivery "
                  + std::to_string(f.source.deliveries) + " of " + std::to_string(m_options.maxDeliveries)
                  + "): " + f.result.error);
        }
    }
    for (const DeadRow& d : m_deadOutbox) addDeadLetter(commands, d);
    commands.push_back({"EXEC"});
    const auto replies = m_redis.retrying([&](RedisConnection& r) { return r.pipeline(commands); });
    for (const RedisValue& reply : replies.back().elements)
        if (reply.isError()) m_log("redis refused a write: " + reply.text);
    if (replies.back().isError()) m_log("redis refused the results: " + replies.back().text);
    m_outbox.clear();
    m_deadOutbox.clear();
}

void ClusterWorker::addResult(std::vector<RedisCommand>& out, const Finished& f)
{
    const InFlight& s = f.source;
    RedisCommand add{"XADD", resultsKey(s.job), "NOMKSTREAM", "*"};
    const auto fields = resultFields({s.row, f.result, m_options.name});
    add.insert(add.end(), fields.begin(), fields.end());
    out.push_back(std::move(add));
    out.push_back({"XACK", rowsKey(s.job), kGroup, s.entryId});
    out.push_back({"XDEL", rowsKey(s.job), s.entryId});
    out.push_back({"HDEL", errorsKey(s.job), std::to_string(s.row)});
    ++m_stats.rowsWritten;
}

// The row leaves the queue with a failed result, so that the job finishes,
// and a copy with its error and spec stays in the dead-letter stream.
void ClusterWorker::addDeadLetter(std::vector<RedisCommand>& out, const DeadRow& d)
{
    const InFlight& s = d.source;
    const std::string deliveries = std::to_string(s.deliveries);
    Finished failed{s, {}};
    failed.result.status = RowStatus::Failed;
    failed.result.error = "gave up after " + deliveries + " deliveries: " + d.error;
    failed.result.model = m_options.modelId;
    out.push_back({"XADD", kDeadLetter, "MAXLEN", "~", "100000", "*", "job", s.job, "row", std::to_string(s.row),
                   "deliveries", deliveries, "error", d.error, "spec", s.spec, "worker", m_options.name});
    out.push_back({"HINCRBY", jobKey(s.job), "dead", "1"});
    addResult(out, failed);
    --m_stats.rowsWritten;
    ++m_stats.deadLettered;
    m_log("row " + std::to_string(s.row) + " of job " + s.job + " moved to " + kDeadLetter + " after "
          + deliveries + " deliveries: " + d.error);
}

// The heartbeat key expires unless renewed, so a dead worker disappears from
// `cluster status` within heartbeatTtl. Renewing also resets the idle time
// of this worker's rows in flight (XCLAIM JUSTID to itself), so that a slow
// batch is not mistaken for a dead worker's.
void ClusterWorker::heartbeat(bool force)
{
    const auto now = Clock::now();
    if (!force && now - m_lastHeartbeat < m_options.heartbeatEvery) return;
    const double seconds = std::chrono::duration<double>(now - m_lastHeartbeat).count();
    if (m_lastHeartbeat != Clock::time_point{} && seconds > 0) {
        const double rate = static_cast<double>(m_stats.rowsWritten - m_rowsAtHeartbeat) / seconds;
        m_rowsPerSecond = m_rowsPerSecond == 0 ? rate : 0.5 * m_rowsPerSecond + 0.5 * rate;
        if (m_rowsPerSecond < 0.01) m_rowsPerSecond = 0;   // idle
    }
    m_lastHeartbeat = now;
    m_rowsAtHeartbeat = m_stats.rowsWritten;
    nlohmann::json jobs = nlohmann::json::array();
    for (const auto& [key, job] : m_jobs) jobs.push_back(key);
    const nlohmann::json beat{{"name", m_options.name}, {"host", hostName()}, {"pid", ::getpid()},
                              {"device", m_options.device}, {"model", m_options.modelId},
                              {"batch", m_options.maxBatch}, {"rows_per_s", m_rowsPerSecond},
                              {"rows_done", m_stats.rowsWritten}, {"in_flight", m_inFlight.size()},
                              {"state", workerStateName(m_state.load())}, {"jobs", jobs},
                              {"reclaimed", m_stats.reclaimed}, {"dead_lettered", m_stats.deadLettered}};
    std::vector<RedisCommand> commands{{"SET", workerKey(m_options.name), beat.dump(), "EX",
                                        std::to_string(m_options.heartbeatTtl.count())}};
    std::map<std::string, RedisCommand> touch;
    for (const auto& [key, row] : m_inFlight) {
        auto& c = touch[row.job];
        if (c.empty()) c = {"XCLAIM", rowsKey(row.job), kGroup, m_options.name, "0"};
        c.push_back(row.entryId);
    }
    for (auto& [job, c] : touch) {
        c.push_back("JUSTID");
        commands.push_back(std::move(c));
    }
    m_redis.retrying([&](RedisConnection& r) { return r.pipeline(commands); });
}

} // namespace couplet
