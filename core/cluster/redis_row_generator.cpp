#include "redis_row_generator.h"

#include "cluster_keys.h"

#include <unistd.h>

#include <ctime>

namespace couplet {
namespace {

using namespace cluster;

constexpr std::size_t kSendChunk = 256;      // rows per transaction
constexpr int kReadCount = 512;              // results per XREAD
constexpr int kBlockMs = 50;                 // poll() must not block for long
constexpr int kFinishedJobTtl = 24 * 3600;   // seconds the job hash stays for `cluster status`

std::string hostName()
{
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    return name;
}

} // namespace

RedisRowGenerator::RedisRowGenerator(RedisConnection& redis, std::string modelId)
    : m_redis(redis)
    , m_modelId(std::move(modelId))
{
}

void RedisRowGenerator::attach(const std::string& jobKey, const BulkJournal& journal, std::int64_t journalJob,
                               const ClusterJobInfo& info)
{
    m_job = jobKey;
    m_journal = &journal;
    m_journalJob = journalJob;
    const std::vector<RedisCommand> setup{
        {"HSET", cluster::jobKey(m_job), "model", m_modelId, "input", info.input, "output", info.output,
         "producer", hostName() + ":" + std::to_string(::getpid()), "total", std::to_string(info.total),
         "state", "running"},
        {"PERSIST", cluster::jobKey(m_job)},
        {"XGROUP", "CREATE", rowsKey(m_job), kGroup, "0", "MKSTREAM"},
        // Creates the results stream, so that workers can add to it with
        // NOMKSTREAM and a late duplicate never recreates a finished job's.
        {"XGROUP", "CREATE", resultsKey(m_job), "producer", "0", "MKSTREAM"},
        {"SADD", kJobsSet, m_job},
        {"SMEMBERS", queuedKey(m_job)}};
    const auto replies = m_redis.retrying([&](RedisConnection& r) { return r.pipeline(setup); });
    for (std::size_t i = 0; i + 1 < replies.size(); ++i)
        if (replies[i].isError() && replies[i].errorCode() != "BUSYGROUP") replies[i].check("creating job " + m_job);
    // Rows queued by an earlier run: in Redis still (not sent again) unless
    // the journal has them (their cleanup was cut short).
    RedisCommand stale{"SREM", queuedKey(m_job)};
    for (const RedisValue& member : replies.back().elements) {
        const std::uint64_t row = std::stoull(member.text);
        if (journal.row(journalJob, row))
            stale.push_back(member.text);
        else
            m_queued.insert(row);
    }
    if (stale.size() > 2) m_redis.retrying([&](RedisConnection& r) { r.command(stale).check("SREM"); });
    m_started = Clock::now();
}

void RedisRowGenerator::submit(const PromptRow& row, std::function<void(RowResult)> done)
{
    const std::uint64_t record = row.recordNumber;
    m_inFlight[record] = Pending{std::move(done), specToJson(row.spec)};
    if (m_early.count(record))
        m_earlyReady.push_back(record);
    else if (!m_queued.count(record))
        m_toSend.push_back(record);
}

bool RedisRowGenerator::poll()
{
    if (m_job.empty()) throw std::logic_error("RedisRowGenerator::poll() before attach()");
    bool any = deliverEarly();
    resyncAfterOutage();
    sendQueued();
    if (!m_inFlight.empty()) any = readResults() || any;
    return any;
}

// A Redis restarted with appendfsync everysec can miss the last second of
// writes, acknowledged or not. Rows are marked queued in the transaction
// that adds them, and the append-only file keeps transactions in order, so
// a row in flight whose mark is gone was lost with it: it is sent again.
void RedisRowGenerator::resyncAfterOutage()
{
    if (m_redis.outages() == m_outagesSeen) return;
    m_outagesSeen = m_redis.outages();
    const RedisValue members = m_redis.retrying([&](RedisConnection& r) {
        return r.command({"SMEMBERS", queuedKey(m_job)}).check("SMEMBERS");
    });
    std::set<std::uint64_t> present;
    for (const RedisValue& m : members.elements) present.insert(std::stoull(m.text));
    for (auto it = m_queued.begin(); it != m_queued.end();) {
        if (present.count(*it) || !m_inFlight.count(*it) || m_early.count(*it)) {
            ++it;
            continue;
        }
        m_toSend.push_back(*it);
        it = m_queued.erase(it);
    }
}

void RedisRowGenerator::sendQueued()
{
    if (m_toSend.empty()) return;
    for (std::size_t from = 0; from < m_toSend.size(); from += kSendChunk) {
        const std::size_t to = std::min(m_toSend.size(), from + kSendChunk);
        std::vector<RedisCommand> commands{{"MULTI"}};
        RedisCommand mark{"SADD", queuedKey(m_job)};
        for (std::size_t i = from; i < to; ++i) {
            const std::string row = std::to_string(m_toSend[i]);
            commands.push_back({"XADD", rowsKey(m_job), "*", "row", row, "spec", m_inFlight.at(m_toSend[i]).spec});
            mark.push_back(row);
        }
        commands.push_back(std::move(mark));
        commands.push_back({"EXEC"});
        const auto replies = m_redis.retrying([&](RedisConnection& r) { return r.pipeline(commands); });
        replies.back().check("queueing rows of job " + m_job);
        for (std::size_t i = from; i < to; ++i) m_queued.insert(m_toSend[i]);
    }
    m_toSend.clear();
}

bool RedisRowGenerator::readResults()
{
    const RedisValue reply = m_redis.retrying([&](RedisConnection& r) {
        RedisCommand read{"XREAD", "COUNT", std::to_string(kReadCount)};
        if (m_earlyReady.empty()) {
            read.push_back("BLOCK");
            read.push_back(std::to_string(kBlockMs));
        }
        read.insert(read.end(), {"STREAMS", resultsKey(m_job), m_lastResult});
        return r.command(read);
    });
    reply.check("reading results of job " + m_job);
    const std::vector<StreamEntry> entries = streamEntries(reply);
    if (entries.empty()) return false;
    std::vector<RedisCommand> cleanup;
    for (const StreamEntry& e : entries) {
        m_lastResult = e.id;
        dispatch(e, cleanup);
    }
    // After the rows were handed to the job: a kill before this leaves
    // results that the next run finds in the journal (and drops) or uses.
    if (!cleanup.empty()) m_redis.retrying([&](RedisConnection& r) { return r.pipeline(cleanup); });
    return true;
}

void RedisRowGenerator::dispatch(const StreamEntry& entry, std::vector<RedisCommand>& cleanup)
{
    RowMessage message;
    try {
        message = resultFromEntry(entry);
    } catch (const RedisError&) {
        cleanup.push_back({"XDEL", resultsKey(m_job), entry.id});   // not ours to read; nothing to keep
        return;
    }
    const std::uint64_t row = message.row;
    if (m_inFlight.count(row)) {
        deliver(row, std::move(message));
    } else if ((row < m_delivered.size() && m_delivered[row]) || m_journal->row(m_journalJob, row)) {
        ++m_duplicates;
    } else {
        m_early[row] = Early{std::move(message), entry.id};
        return;   // kept until the row is submitted and its result committed
    }
    cleanup.push_back({"XDEL", resultsKey(m_job), entry.id});
    cleanup.push_back({"SREM", queuedKey(m_job), std::to_string(row)});
}

void RedisRowGenerator::deliver(std::uint64_t row, RowMessage message)
{
    const auto it = m_inFlight.find(row);
    std::function<void(RowResult)> done = std::move(it->second.done);
    m_inFlight.erase(it);
    m_queued.erase(row);
    if (row >= m_delivered.size()) m_delivered.resize(row + 1 + row / 2);
    m_delivered[row] = true;
    ++m_rowsByWorker[message.worker];
    done(std::move(message.result));
}

bool RedisRowGenerator::deliverEarly()
{
    if (m_earlyReady.empty()) return false;
    std::vector<RedisCommand> cleanup;
    while (!m_earlyReady.empty()) {
        const std::uint64_t row = m_earlyReady.front();
        m_earlyReady.pop_front();
        auto early = m_early.extract(row);
        if (early.empty() || !m_inFlight.count(row)) continue;
        cleanup.push_back({"XDEL", resultsKey(m_job), early.mapped().entryId});
        cleanup.push_back({"SREM", queuedKey(m_job), std::to_string(row)});
        deliver(row, std::move(early.mapped().message));
    }
    if (!cleanup.empty()) m_redis.retrying([&](RedisConnection& r) { return r.pipeline(cleanup); });
    return true;
}

// The rows stay in Redis: a resumed job finds them in the queued set.
void RedisRowGenerator::cancelAll()
{
    m_inFlight.clear();
    m_toSend.clear();
    m_earlyReady.clear();
}

std::vector<std::string> RedisRowGenerator::publish(const BulkProgress& p)
{
    std::vector<std::string> news;
    if (Clock::now() - m_lastPublish < std::chrono::seconds(1)) return news;
    m_lastPublish = Clock::now();
    const std::vector<RedisCommand> commands{
        {"HSET", cluster::jobKey(m_job), "done", std::to_string(p.done()), "ok", std::to_string(p.ok),
         "invalid", std::to_string(p.invalid), "failed", std::to_string(p.failed), "rows_per_s",
         std::to_string(p.rowsPerSecond), "duplicates", std::to_string(m_duplicates)},
        {"HGETALL", cluster::jobKey(m_job)}};
    const auto replies = m_redis.retrying([&](RedisConnection& r) { return r.pipeline(commands); });
    for (const auto& [field, why] : fieldMap(replies[1])) {
        if (field.rfind("refused:", 0) != 0 || !m_refusalsSeen.insert(field).second) continue;
        news.push_back("worker " + field.substr(8) + " refused job " + m_job + ": " + why);
    }
    return news;
}

void RedisRowGenerator::finish(const BulkProgress& p)
{
    m_lastPublish = {};
    publish(p);
    const std::string now = std::to_string(std::time(nullptr));
    const std::vector<RedisCommand> commands{
        {"HSET", cluster::jobKey(m_job), "state", "finished", "finished_at", now},
        {"EXPIRE", cluster::jobKey(m_job), std::to_string(kFinishedJobTtl)},
        {"SREM", kJobsSet, m_job},
        {"ZADD", kFinishedJobsSet, now, m_job},
        {"ZREMRANGEBYSCORE", kFinishedJobsSet, "-inf", std::to_string(std::time(nullptr) - kFinishedJobTtl)},
        {"DEL", rowsKey(m_job), resultsKey(m_job), queuedKey(m_job), errorsKey(m_job)}};
    m_redis.retrying([&](RedisConnection& r) { return r.pipeline(commands); });
}

std::vector<RedisRowGenerator::WorkerRate> RedisRowGenerator::workerRates() const
{
    const double seconds = std::chrono::duration<double>(Clock::now() - m_started).count();
    std::vector<WorkerRate> rates;
    for (const auto& [worker, rows] : m_rowsByWorker)
        rates.push_back({worker, rows, seconds > 0 ? static_cast<double>(rows) / seconds : 0});
    return rates;
}

} // namespace couplet
