// The producer's RedisRowGenerator under a real BulkJob, journal and Redis,
// with this test as the worker: the in-flight window bounds the rows in
// Redis, and a result delivered twice is counted and written once; `cluster
// status` lists running jobs and recently finished ones.

#include "check.h"
#include "cluster_producer.h"
#include "cluster_status.h"
#include "redis_row_generator.h"
#include "redis_server.h"
#include "row_codec.h"
#include "scratch_dir.h"

#include "bulk_job.h"
#include "csv_reader.h"

#include <fstream>
#include <map>

using namespace couplet;
using couplet::test::RedisServer;

namespace {

constexpr int kRows = 12;
constexpr int kWindow = 4;
constexpr std::uint64_t kTwice = 3;   // the row whose result this "worker" sends twice

// Reads what is queued, as a worker would, and answers every row (row kTwice twice).
int answerRows(RedisConnection& redis, const std::string& job)
{
    const RedisValue read = redis.command({"XREADGROUP", "GROUP", "workers", "tester", "COUNT", "100", "STREAMS",
                                           "couplet:job:" + job + ":rows", ">"});
    int answered = 0;
    for (const StreamEntry& e : streamEntries(read)) {
        const std::uint64_t row = cluster::rowOf(e);
        RowResult result;
        result.couplet = {"春风送暖", "瑞雪迎春", "万象更新", -1.5, row, {}, 0, 0};
        result.model = "m";
        RedisCommand add{"XADD", "couplet:job:" + job + ":results", "NOMKSTREAM", "*"};
        const auto fields = cluster::resultFields({row, result, "tester"});
        add.insert(add.end(), fields.begin(), fields.end());
        std::vector<RedisCommand> commands{add};
        if (row == kTwice) commands.push_back(add);
        commands.push_back({"XACK", "couplet:job:" + job + ":rows", "workers", e.id});
        commands.push_back({"XDEL", "couplet:job:" + job + ":rows", e.id});
        for (const RedisValue& reply : redis.pipeline(commands)) reply.check("answering");
        ++answered;
    }
    return answered;
}

void writeInput(const std::filesystem::path& path, int rows)
{
    std::ofstream in(path, std::ios::binary);
    in << "id,关键词\n";
    for (int i = 1; i <= rows; ++i) in << 'r' << i << ",春风\n";
}

} // namespace

COUPLET_TEST(windowBoundsRedisAndDuplicatesAreWrittenOnce)
{
    RedisServer::skipUnlessInstalled();
    const couplet::test::ScratchDir dir("redis-producer");
    RedisServer server(dir / "redis");
    RedisConnection redis(RedisUrl::parse(server.url()));
    writeInput(dir / "in.csv", kRows);
    BulkJournal journal(dir / "jobs.sqlite");
    BulkJobOptions options;
    options.input = dir / "in.csv";
    options.output = dir / "out.csv";
    options.maxInFlight = kWindow;
    RedisRowGenerator generator(redis, "m@1");
    BulkJob job(options, journal, generator);
    job.start();
    generator.attach("t1", journal, job.jobId(), {options.input.string(), options.output.string(), kRows});
    CHECK_EQ(redis.command({"HGET", "couplet:job:t1", "model"}).text, std::string("m@1"));
    std::int64_t mostQueued = 0;
    int answered = 0;
    for (int turn = 0; turn < 10000 && job.step(); ++turn) {
        mostQueued = std::max(mostQueued, redis.command({"XLEN", "couplet:job:t1:rows"}).integer);
        answered += answerRows(redis, "t1");
    }
    CHECK(job.progress().state == BulkState::Finished);
    CHECK_EQ(answered, kRows);
    CHECK(mostQueued > 0);
    CHECK(mostQueued <= kWindow);
    CHECK_EQ(generator.duplicates(), std::uint64_t{1});
    CHECK_EQ(journal.counts(job.jobId()).ok, std::uint64_t{kRows});
    CsvReader reader(options.output);
    std::map<std::string, int> seen;
    CsvRecord record;
    while (reader.next(record)) ++seen[record.fields.at(0)];
    CHECK_EQ(seen.size(), std::size_t{kRows});
    for (const auto& [id, n] : seen) CHECK_EQ(n, 1);
    generator.finish(job.progress());
    CHECK_EQ(redis.command({"EXISTS", "couplet:job:t1:rows", "couplet:job:t1:results", "couplet:job:t1:queued"}).integer, 0);
    CHECK_EQ(redis.command({"SISMEMBER", "couplet:jobs", "t1"}).integer, 0);
    CHECK_EQ(redis.command({"HGET", "couplet:job:t1", "duplicates"}).text, std::string("1"));
}

COUPLET_TEST(clusterStatusListsRunningAndRecentlyFinishedJobs)
{
    RedisServer::skipUnlessInstalled();
    const couplet::test::ScratchDir dir("redis-status");
    RedisServer server(dir / "redis");
    RedisConnection redis(RedisUrl::parse(server.url()));
    writeInput(dir / "in.csv", 3);
    BulkJournal journal(dir / "jobs.sqlite");
    BulkJobOptions options;
    options.input = dir / "in.csv";
    options.output = dir / "done.csv";
    ClusterProducer finished(redis, "m@1", options, journal);
    finished.job().start();
    finished.attach();
    const std::string finishedKey = finished.generator().jobKey();
    std::vector<std::string> refusals;
    for (int turn = 0; turn < 10000 && finished.step(refusals); ++turn) answerRows(redis, finishedKey);
    CHECK(finished.job().progress().state == BulkState::Finished);
    finished.finish();

    options.output = dir / "running.csv";
    ClusterProducer running(redis, "m@1", options, journal);
    running.job().start();
    running.attach();
    CHECK(running.generator().jobKey() != finishedKey);
    // A finished job whose hash has expired is not listed.
    redis.command({"ZADD", "couplet:jobs:finished", "1", "expired-job"}).check("ZADD");

    const ClusterStatus status = ClusterStatus::read(redis);
    CHECK_EQ(status.jobs.size(), std::size_t{2});
    CHECK_EQ(status.runningJobs(), 1);
    CHECK_EQ(status.jobs[0].key, running.generator().jobKey());
    CHECK(!status.jobs[0].finished);
    CHECK_EQ(status.jobs[1].key, finishedKey);
    CHECK(status.jobs[1].finished);
    CHECK_EQ(status.jobs[1].fields.at("state"), std::string("finished"));
    CHECK_EQ(status.jobs[1].fields.at("done"), std::string("3"));
    CHECK(!status.jobs[1].fields.at("finished_at").empty());
    CHECK_EQ(ClusterStatus::read(redis, 5, 0).jobs.size(), std::size_t{1});
}
