// Bulk jobs over Redis Streams with real processes: a redis-server started
// here, `couplet worker`s on the tiny model, `couplet batch --redis` as the
// producer; crashes of each, and rows that cannot be generated.

#include "check.h"
#include "cluster_rig.h"
#include "stream_entry.h"
#include "wait_for.h"

#include <nlohmann/json.hpp>

#include <csignal>
#include <iostream>
#include <stdexcept>
#include <thread>

using namespace couplet;
using namespace couplet::test;
using namespace std::chrono_literals;

namespace {

constexpr auto kJobTimeout = std::chrono::seconds(300);

int exitWithin(ChildProcess& p, std::chrono::seconds timeout)
{
    waitFor(p.log().filename().string() + "'s process to end", timeout, [&] { return !p.running(); });
    return p.wait();
}

void expectAllOk(const std::map<std::string, OutputRow>& rows)
{
    for (const auto& [id, row] : rows) {
        if (row.cells.at("status") != "ok") std::cout << id << ": " << row.cells.at("error") << '\n';
        CHECK_EQ(row.cells.at("status"), std::string("ok"));
    }
}

// Rows delivered to `consumer` and not yet acknowledged.
std::int64_t pendingAt(RedisConnection& redis, const std::string& job, const std::string& consumer)
{
    const RedisValue v = redis.command({"XPENDING", "couplet:job:" + job + ":rows", "workers", "-", "+", "100", consumer});
    return static_cast<std::int64_t>(v.elements.size());
}

// Two workers and the producer on `rows` rows, once 20 rows are written.
struct TwoWorkerJob {
    std::filesystem::path model;
    std::unique_ptr<ChildProcess> w1, w2, producer;
    std::string job;
};

TwoWorkerJob startTwoWorkerJob(ClusterRig& rig, int rows)
{
    TwoWorkerJob j;
    j.model = rig.writeModel("model", 1);
    rig.writeInput(rows);
    j.w1 = rig.startWorker("w1", j.model);
    j.w2 = rig.startWorker("w2", j.model);
    j.producer = rig.startProducer(j.model, false);
    j.job = rig.jobKey();
    waitFor("20 rows written", 120s, [&] { return rig.rowsOnDisk() >= 20; });
    return j;
}

// Freezes `processes` and asks `ready`; if not yet, lets them run and asks
// again, until `ready` holds with them frozen (they stay frozen). Throws once
// `producer` ends or 120 s pass, with `what` in the message.
template <typename Ready>
void freezeWhen(std::initializer_list<ChildProcess*> processes, ChildProcess& producer, Ready ready,
                const std::string& what)
{
    const auto deadline = std::chrono::steady_clock::now() + 120s;
    while (true) {
        for (ChildProcess* p : processes) p->freeze();
        if (ready()) return;
        for (ChildProcess* p : processes) p->signal(SIGCONT);
        if (std::chrono::steady_clock::now() > deadline || !producer.running())
            throw std::runtime_error(what + " (the job ended or 120 s passed)");
        std::this_thread::yield();
    }
}

} // namespace

COUPLET_TEST(threeWorkersOneKilledMidJobEveryRowOnce)
{
    ClusterRig rig("kill-worker");
    const auto model = rig.writeModel("model", 1);
    constexpr int kRows = 400;
    rig.writeInput(kRows);
    // w2 starts alone, so the job cannot end without it. It holds rows only
    // for the few milliseconds a batch takes, so rather than poll for such a
    // moment (which a loaded machine can miss every time) it is frozen first
    // and then asked: frozen holding rows, it stays so; holding none, it
    // runs on and is tried again.
    auto w2 = rig.startWorker("w2", model);
    waitFor("w2 live in cluster status", 120s, [&] {
        const auto status = nlohmann::json::parse(rig.clusterStatusJson());
        return status["workers"].size() == 1 && status["jobs"].empty();
    });
    auto producer = rig.startProducer(model, false);
    const std::string job = rig.jobKey();
    freezeWhen({w2.get()}, *producer, [&] { return pendingAt(rig.client(), job, "w2") > 0; },
               "w2 was never frozen holding rows");
    const std::int64_t held = pendingAt(rig.client(), job, "w2");
    auto w1 = rig.startWorker("w1", model);
    auto w3 = rig.startWorker("w3", model);
    // Killed while it holds rows: they are pending at w2 and only a reclaim
    // by w1 or w3 can finish them.
    waitFor("20 rows written", 120s, [&] { return rig.rowsOnDisk() >= 20; });
    CHECK(held > 0);
    w2->signal(SIGKILL);
    CHECK_EQ(w2->wait(), -SIGKILL);
    CHECK_EQ(exitWithin(*producer, kJobTimeout), 0);
    const auto rows = expectEachRowOnce(rig.readOutput(), kRows);
    expectAllOk(rows);
    CHECK(countOf(w1->logText() + w3->logText(), "took over") >= 1);
    CHECK(countOf(producer->logText(), "duplicates:") == 1);
    // The job's streams are gone; its hash says it finished.
    CHECK_EQ(rig.client().command({"EXISTS", "couplet:job:" + job + ":rows"}).integer, 0);
    CHECK_EQ(rig.client().command({"HGET", "couplet:job:" + job, "state"}).text, std::string("finished"));
}

COUPLET_TEST(producerKilledAndResumedEveryRowOnce)
{
    ClusterRig rig("kill-producer");
    constexpr int kRows = 400;
    TwoWorkerJob run = startTwoWorkerJob(rig, kRows);
    const std::string& job = run.job;
    // The kill must land while rows are queued for the workers, or no result
    // would come while the producer is down. The producer sends rows as the
    // job asks for them and the tiny model keeps up, so the queue is often
    // empty; unguarded, the test then timed out on a loaded machine. The
    // workers are frozen and the queue looked at: only workers take rows
    // out, so rows seen there stay until the workers go on after the kill.
    const RedisCommand queueLength{"XLEN", "couplet:job:" + job + ":rows"};
    freezeWhen({run.w1.get(), run.w2.get()}, *run.producer,
               [&] { return rig.client().command(queueLength).integer > 0; },
               "no row was ever queued with the workers frozen");
    run.producer->signal(SIGKILL);
    CHECK_EQ(run.producer->wait(), -SIGKILL);
    run.w1->signal(SIGCONT);
    run.w2->signal(SIGCONT);
    // The workers go on: results wait in Redis for the producer.
    waitFor("results while the producer is down", 120s, [&] {
        return rig.client().command({"XLEN", "couplet:job:" + job + ":results"}).integer > 0;
    });
    auto resumed = rig.startProducer(run.model, true);
    CHECK_EQ(exitWithin(*resumed, kJobTimeout), 0);
    CHECK(countOf(resumed->logText(), "resuming job") == 1);
    expectAllOk(expectEachRowOnce(rig.readOutput(), kRows));
    CHECK_EQ(rig.client().command({"SISMEMBER", "couplet:jobs", job}).integer, 0);
}

COUPLET_TEST(redisKilledAndRestartedWithAofLosesNothing)
{
    ClusterRig rig("kill-redis");
    constexpr int kRows = 400;
    TwoWorkerJob run = startTwoWorkerJob(rig, kRows);
    ChildProcess& w1 = *run.w1;
    ChildProcess& w2 = *run.w2;
    ChildProcess& producer = *run.producer;
    // The workers are frozen while Redis goes down, so that the job cannot
    // finish first (with 120 rows it sometimes did, between the 20th row and
    // the kill, and the producer then exited without seeing the outage).
    w1.freeze();
    w2.freeze();
    if (rig.rowsOnDisk() >= kRows) throw std::runtime_error("the job ended before Redis could be killed");
    rig.redis().kill();
    w1.signal(SIGCONT);
    w2.signal(SIGCONT);
    waitFor("every process to notice the outage", 60s, [&] {
        return countOf(w1.logText(), "redis unavailable") == 1 && countOf(w2.logText(), "redis unavailable") == 1
            && countOf(producer.logText(), "redis unavailable") == 1;
    });
    const int rowsDuringOutage = rig.rowsOnDisk();
    rig.redis().start();
    CHECK_EQ(exitWithin(producer, kJobTimeout), 0);
    CHECK(rig.rowsOnDisk() > rowsDuringOutage);
    expectAllOk(expectEachRowOnce(rig.readOutput(), kRows));
    // One line when the outage began and one when it ended, not one per attempt.
    for (ChildProcess* p : {&w1, &w2, &producer}) {
        CHECK_EQ(countOf(p->logText(), "redis unavailable"), 1);
        CHECK_EQ(countOf(p->logText(), "redis back"), 1);
    }
}

COUPLET_TEST(rowThatFailsGoesToDeadLetterAndJobFinishes)
{
    ClusterRig rig("dead-letter");
    // 40 positions: a 7-character couplet fits, a 20-character one cannot.
    const auto model = rig.writeModel("short-model", 1, 40);
    constexpr int kRows = 24;
    constexpr int kFailing = 5;
    rig.writeInput(kRows, {{kFailing, 20}});
    const std::vector<std::string> retry{"--claim-idle-ms", "300", "--max-deliveries", "3"};
    auto w1 = rig.startWorker("w1", model, retry);
    auto w2 = rig.startWorker("w2", model, retry);
    auto producer = rig.startProducer(model, false);
    CHECK_EQ(exitWithin(*producer, kJobTimeout), 0);
    const auto rows = expectEachRowOnce(rig.readOutput(), kRows);
    for (const auto& [id, row] : rows) {
        const bool failing = id == "r" + std::to_string(kFailing);
        CHECK_EQ(row.cells.at("status"), std::string(failing ? "failed" : "ok"));
        if (failing) CHECK(row.cells.at("error").find("gave up after 3 deliveries") != std::string::npos);
    }
    const RedisValue dead = rig.client().command({"XRANGE", "couplet:dead", "-", "+"});
    CHECK_EQ(dead.elements.size(), std::size_t{1});
    const auto fields = fieldMap(dead.elements[0].elements[1]);
    CHECK_EQ(fields.at("row"), std::to_string(kFailing));
    CHECK_EQ(fields.at("deliveries"), std::string("3"));
    CHECK(fields.at("error").find("tokens") != std::string::npos);
    CHECK_EQ(countOf(w1->logText() + w2->logText(), "failed (delivery"), 2);
}

COUPLET_TEST(workerWithAnotherModelRefusesTheJob)
{
    ClusterRig rig("refuse");
    const auto wanted = rig.writeModel("model-a", 1);
    const auto other = rig.writeModel("model-b", 2);
    constexpr int kRows = 20;
    rig.writeInput(kRows);
    auto wrong = rig.startWorker("wb", other);
    auto producer = rig.startProducer(wanted, false);
    const std::string job = rig.jobKey();
    waitFor("wb to refuse the job", 120s, [&] {
        return !rig.client().command({"HGET", "couplet:job:" + job, "refused:wb"}).isNil();
    });
    waitFor("the producer to report the refusal", 60s,
            [&] { return countOf(producer->logText(), "worker wb refused job") == 1; });
    CHECK_EQ(countOf(wrong->logText(), "refusing job " + job), 1);
    CHECK_EQ(pendingAt(rig.client(), job, "wb"), 0);
    CHECK_EQ(rig.rowsOnDisk(), 0);
    auto right = rig.startWorker("wa", wanted);
    CHECK_EQ(exitWithin(*producer, kJobTimeout), 0);
    const auto rows = expectEachRowOnce(rig.readOutput(), kRows);
    expectAllOk(rows);
    for (const auto& [id, row] : rows) CHECK_EQ(row.cells.at("model"), std::string("model-a"));
    // Stopped with SIGTERM, a worker drains and leaves the cluster.
    right->signal(SIGTERM);
    CHECK_EQ(exitWithin(*right, 60s), 0);
    CHECK_EQ(rig.client().command({"EXISTS", "couplet:worker:wa"}).integer, 0);
}
