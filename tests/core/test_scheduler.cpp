// Scheduler batching: admission, compaction, live settings, token budget,
// batching window, padding and metrics. Priority, cancellation and failures
// are in test_scheduler_control.cpp.
#include "scheduler_rig.h"

#include <check.h>

#include <algorithm>
#include <cstdio>

using namespace couplet;
using namespace couplet::test;

namespace {

SchedulerSettings settingsWith(int maxBatch, int maxStepTokens = 2048, int maxWaitMs = 0)
{
    SchedulerSettings s;
    s.maxBatch = maxBatch;
    s.maxStepTokens = maxStepTokens;
    s.maxWaitMs = maxWaitMs;
    return s;
}

} // namespace

COUPLET_TEST(admitsUpToMaxBatch)
{
    SchedulerRig rig(settingsWith(4));
    std::vector<RequestId> ids;
    for (int i = 0; i < 6; ++i) ids.push_back(rig.submit(makePrompt(5, i), 10));
    auto stats = rig.scheduler->step();
    CHECK_EQ(stats.prefilled, 4);
    CHECK_EQ(stats.prefillTokens, 20);
    CHECK_EQ(stats.running, 4);
    CHECK_EQ(stats.waiting, 2);
    CHECK_EQ(rig.decoder.prefillCalls, 1);
    stats = rig.scheduler->step();
    CHECK_EQ(stats.decoded, 4);
    CHECK_EQ(stats.prefilled, 0);
    rig.runToEnd();
    CHECK_EQ(rig.decoder.maxBatchSeen, 4);
    for (int i = 0; i < 6; ++i) {
        CHECK(rig.results[ids[i]].status == RequestStatus::Done);
        CHECK_EQ(rig.results[ids[i]].tokens, rig.expected(makePrompt(5, i), 10));
    }
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(batchOutputsMatchSoloRunsAcrossSlotReuse)
{
    // Different lengths finish at different steps, so rows free in the middle
    // and the last row is moved into them.
    SchedulerRig rig(settingsWith(3));
    std::vector<RequestId> ids;
    for (int i = 0; i < 8; ++i) ids.push_back(rig.submit(makePrompt(3 + i, i), 2 + (i * 5) % 13));
    rig.runToEnd();
    CHECK(rig.decoder.copies > 0);
    CHECK(rig.decoder.violations().empty());
    for (int i = 0; i < 8; ++i) {
        const auto want = rig.expected(makePrompt(3 + i, i), 2 + (i * 5) % 13);
        CHECK(rig.results[ids[i]].status == RequestStatus::Done);
        CHECK_EQ(rig.results[ids[i]].tokens, want);
        CHECK_EQ(rig.text[ids[i]], asText(want));
        CHECK_EQ(rig.finishes[ids[i]], 1);
    }
    // And the same request through a scheduler of its own.
    SchedulerRig alone(settingsWith(3));
    const RequestId id = alone.submit(makePrompt(3 + 5, 5), 2 + (5 * 5) % 13);
    alone.runToEnd();
    CHECK_EQ(alone.results[id].tokens, rig.results[ids[5]].tokens);
}

COUPLET_TEST(maxBatchShrinksAndGrowsLive)
{
    SchedulerRig rig(settingsWith(4));
    std::vector<RequestId> ids;
    for (int i = 0; i < 16; ++i) ids.push_back(rig.submit(makePrompt(4, i), 6 + i % 3));
    rig.scheduler->step();
    CHECK_EQ(rig.scheduler->runningCount(), 4);

    rig.scheduler->setSettings(settingsWith(2));
    CHECK_EQ(rig.scheduler->settings().maxBatch, 2);
    bool admittedAgain = false;
    for (int i = 0; i < 12; ++i) {
        const int before = rig.scheduler->runningCount();
        const auto stats = rig.scheduler->step();
        CHECK_EQ(stats.decoded, before); // nothing running was dropped
        if (before - stats.finished >= 2) CHECK_EQ(stats.prefilled, 0);
        CHECK(stats.running <= std::max(before, 2));
        admittedAgain = admittedAgain || stats.prefilled > 0;
    }
    CHECK(admittedAgain);
    CHECK_EQ(rig.scheduler->effectiveMaxBatch(), 2);

    rig.scheduler->setSettings(settingsWith(6));
    rig.scheduler->step();
    CHECK_EQ(rig.decoder.reserveRequests.back(), 6);
    CHECK_EQ(rig.scheduler->runningCount(), 6);
    rig.runToEnd();
    CHECK_EQ(rig.decoder.maxBatchSeen, 6);
    for (int i = 0; i < 16; ++i) CHECK_EQ(rig.results[ids[i]].tokens, rig.expected(makePrompt(4, i), 6 + i % 3));
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(respectsPromptTokenBudget)
{
    SchedulerRig rig(settingsWith(8, 10));
    for (int i = 0; i < 5; ++i) rig.submit(makePrompt(4, i), 5);
    auto stats = rig.scheduler->step();
    CHECK_EQ(stats.prefilled, 2);
    CHECK_EQ(stats.prefillTokens, 8);
    stats = rig.scheduler->step();
    CHECK_EQ(stats.prefilled, 2);
    CHECK_EQ(stats.decoded, 2);

    // A prompt longer than the whole budget still runs, alone.
    SchedulerRig big(settingsWith(8, 10));
    const RequestId longId = big.submit(makePrompt(25, 1), 3);
    big.submit(makePrompt(4, 2), 3);
    stats = big.scheduler->step();
    CHECK_EQ(stats.prefilled, 1);
    CHECK_EQ(stats.prefillTokens, 25);
    big.runToEnd();
    CHECK_EQ(big.results[longId].tokens, big.expected(makePrompt(25, 1), 3));
}

COUPLET_TEST(batchingWindowWaitsAtMostMaxWait)
{
    SchedulerRig rig(settingsWith(4, 2048, 50));
    CHECK_EQ(rig.scheduler->msUntilReady(), 0); // nothing to do
    rig.submit(makePrompt(3, 1), 4);
    CHECK_EQ(rig.scheduler->msUntilReady(), 50);
    rig.advanceMs(20);
    CHECK_EQ(rig.scheduler->msUntilReady(), 30);
    rig.submit(makePrompt(3, 2), 4); // the oldest request sets the deadline
    CHECK_EQ(rig.scheduler->msUntilReady(), 30);
    rig.advanceMs(29);
    CHECK_EQ(rig.scheduler->msUntilReady(), 1);
    rig.advanceMs(1);
    CHECK_EQ(rig.scheduler->msUntilReady(), 0);

    SchedulerRig full(settingsWith(4, 2048, 50));
    for (int i = 0; i < 3; ++i) full.submit(makePrompt(3, i), 4);
    CHECK_EQ(full.scheduler->msUntilReady(), 50);
    full.submit(makePrompt(3, 3), 4); // a full batch waits for nothing
    CHECK_EQ(full.scheduler->msUntilReady(), 0);
    full.scheduler->setSettings(settingsWith(8, 2048, 10));
    CHECK_EQ(full.scheduler->msUntilReady(), 10); // never longer than maxWaitMs
    full.scheduler->step();
    full.submit(makePrompt(3, 9), 4);
    CHECK_EQ(full.scheduler->msUntilReady(), 0); // busy: the next step admits it
}

COUPLET_TEST(groupsBulkPromptsOfSimilarLength)
{
    // Lengths alternate short and long; every request generates the same
    // number of tokens, so slots free four at a time.
    const int kBatch = 4;
    std::vector<int> lengths;
    for (int i = 0; i < 16; ++i) lengths.push_back(i % 2 == 0 ? 3 + i : 40 - i);
    SchedulerRig rig(settingsWith(kBatch));
    std::vector<RequestId> ids;
    for (int i = 0; i < 16; ++i) ids.push_back(rig.submit(makePrompt(lengths[i], i), 4));
    rig.runToEnd();
    int fifoPadding = 0;
    for (int b = 0; b < 16; b += kBatch) {
        const int longest = *std::max_element(lengths.begin() + b, lengths.begin() + b + kBatch);
        for (int i = b; i < b + kBatch; ++i) fifoPadding += longest - lengths[i];
    }
    std::printf("padded prefill tokens: FIFO %d, grouped %d (prefill calls %d)\n", fifoPadding,
                rig.decoder.paddedTokens, rig.decoder.prefillCalls);
    CHECK_EQ(rig.decoder.prefillCalls, 4);
    CHECK_EQ(fifoPadding, 192);
    // Each batch is the head plus its three nearest lengths: 2+4+6 padding.
    CHECK_EQ(rig.decoder.paddedTokens, 48);
    for (int i = 0; i < 16; ++i) CHECK_EQ(rig.results[ids[i]].tokens, rig.expected(makePrompt(lengths[i], i), 4));
}

COUPLET_TEST(reportsRequestMetricsWithTheInjectedClock)
{
    SchedulerRig rig(settingsWith(4));
    const RequestId id = rig.submit(makePrompt(6, 1), 4);
    rig.advanceMs(10);
    auto stats = rig.scheduler->step(); // admitted and first token at +10 ms
    CHECK_EQ(stats.prefilled, 1);
    for (int i = 0; i < 3; ++i) {
        rig.advanceMs(5);
        stats = rig.scheduler->step();
    }
    CHECK_EQ(stats.finished, 1);
    CHECK_EQ(stats.running, 0);
    const auto& m = rig.results[id].metrics;
    CHECK_NEAR(m.queueWaitMs, 10, 1e-9);
    CHECK_NEAR(m.firstTokenMs, 10, 1e-9);
    CHECK_NEAR(m.totalMs, 25, 1e-9);
    CHECK_EQ(m.promptTokens, 6);
    CHECK_EQ(m.generatedTokens, 4);
    CHECK_EQ(m.preemptions, 0);
    CHECK_EQ(rig.scheduler->hasWork(), false);
}
