// Scheduler control: priority and preemption, starvation, cancellation,
// failures, running out of device memory, re-entrant callbacks.
#include "scheduler_rig.h"

#include <check.h>

using namespace couplet;
using namespace couplet::test;

namespace {

SchedulerSettings settingsWith(int maxBatch)
{
    SchedulerSettings s;
    s.maxBatch = maxBatch;
    s.maxWaitMs = 0;
    return s;
}

} // namespace

COUPLET_TEST(interactiveStartsWithinOneStepUnderFullBulkLoad)
{
    SchedulerRig rig(settingsWith(3));
    std::vector<RequestId> bulk;
    for (int i = 0; i < 5; ++i) bulk.push_back(rig.submit(makePrompt(4 + i, i), 20));
    rig.scheduler->step();
    rig.scheduler->step();
    CHECK_EQ(rig.scheduler->runningCount(), 3);

    const RequestId interactive = rig.submit(makePrompt(5, 42), 5, Priority::Interactive);
    const auto stats = rig.scheduler->step();
    CHECK_EQ(stats.prefilled, 1);
    CHECK(!rig.text[interactive].empty());
    CHECK_EQ(rig.scheduler->runningCount(), 3);
    // The latest admitted bulk one was paused after this step's decode.
    const std::string paused = rig.text[bulk[2]];
    const std::string going = rig.text[bulk[0]];
    rig.scheduler->step();
    CHECK_EQ(rig.text[bulk[2]], paused);
    CHECK(rig.text[bulk[0]] != going);

    rig.runToEnd();
    CHECK_EQ(rig.results[interactive].tokens, rig.expected(makePrompt(5, 42), 5));
    int preemptions = 0;
    for (int i = 0; i < 5; ++i) {
        const auto want = rig.expected(makePrompt(4 + i, i), 20);
        CHECK(rig.results[bulk[i]].status == RequestStatus::Done);
        CHECK_EQ(rig.results[bulk[i]].tokens, want);
        CHECK_EQ(rig.text[bulk[i]], asText(want));
        preemptions += rig.results[bulk[i]].metrics.preemptions;
    }
    CHECK_EQ(rig.results[bulk[2]].metrics.preemptions, 1);
    CHECK_EQ(preemptions, 1);
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(interactiveFillsFreeSlotsBeforeBulk)
{
    SchedulerRig rig(settingsWith(3));
    const RequestId b1 = rig.submit(makePrompt(4, 1), 5);
    rig.submit(makePrompt(4, 2), 5);
    const RequestId i1 = rig.submit(makePrompt(4, 3), 5, Priority::Interactive);
    const RequestId i2 = rig.submit(makePrompt(4, 4), 5, Priority::Interactive);
    rig.scheduler->step();
    // Two interactive, and the one slot bulk keeps while it has work.
    CHECK(!rig.text[i1].empty());
    CHECK(!rig.text[i2].empty());
    CHECK(!rig.text[b1].empty());
    CHECK_EQ(rig.scheduler->waitingCount(), 1);
}

COUPLET_TEST(bulkIsNotStarvedByAStreamOfInteractive)
{
    SchedulerRig rig(settingsWith(2));
    const RequestId bulk = rig.submit(makePrompt(4, 1), 12);
    int step = 0;
    for (; step < 40 && rig.finishes[bulk] == 0; ++step) {
        rig.submit(makePrompt(3, step), 3, Priority::Interactive);
        rig.submit(makePrompt(3, step + 50), 3, Priority::Interactive);
        rig.scheduler->step();
    }
    CHECK_EQ(rig.finishes[bulk], 1);
    // Interactive work is waiting, so the first step prefills (token 1) before
    // it decodes (token 2); then one token a step, never paused.
    CHECK_EQ(step, 11);
    CHECK(rig.scheduler->waitingCount() > 0); // the interactive stream was still queued
    CHECK_EQ(rig.results[bulk].tokens, rig.expected(makePrompt(4, 1), 12));
}

COUPLET_TEST(interactiveIsNotStarvedByBulk)
{
    SchedulerRig rig(settingsWith(2));
    for (int i = 0; i < 10; ++i) rig.submit(makePrompt(4, i), 30);
    std::vector<RequestId> interactive;
    for (int round = 0; round < 6; ++round) {
        for (int s = 0; s < 4; ++s) rig.scheduler->step();
        const RequestId id = rig.submit(makePrompt(3, 60 + round), 2, Priority::Interactive);
        rig.scheduler->step();
        CHECK(!rig.text[id].empty());
        interactive.push_back(id);
    }
    rig.runToEnd();
    for (int round = 0; round < 6; ++round)
        CHECK_EQ(rig.results[interactive[round]].tokens, rig.expected(makePrompt(3, 60 + round), 2));
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(cancelsOneJobOrAllExactlyOnce)
{
    // Equal prompt lengths, so bulk admission is plain FIFO: a, b, c run first.
    SchedulerRig rig(settingsWith(3));
    const RequestId a = rig.submit(makePrompt(4, 1), 10, Priority::Bulk, 1);
    const RequestId b = rig.submit(makePrompt(4, 2), 10, Priority::Bulk, 1);
    const RequestId c = rig.submit(makePrompt(4, 3), 10, Priority::Bulk, 2);
    const RequestId d = rig.submit(makePrompt(4, 4), 10, Priority::Bulk, 2);
    const RequestId e = rig.submit(makePrompt(4, 5), 10, Priority::Bulk, 3);
    const RequestId f = rig.submit(makePrompt(4, 6), 10, Priority::Bulk, 1);
    rig.scheduler->step();
    rig.scheduler->step();
    CHECK_EQ(rig.scheduler->runningCount(), 3);

    rig.scheduler->cancel(a); // running, row 0: the last row moves into it
    CHECK_EQ(rig.finishes[a], 1);
    CHECK(rig.results[a].status == RequestStatus::Cancelled);
    CHECK_EQ(rig.results[a].tokens.size(), std::size_t(2));
    CHECK_EQ(rig.scheduler->runningCount(), 2);
    rig.scheduler->cancel(e); // waiting
    CHECK_EQ(rig.scheduler->waitingCount(), 2);
    rig.scheduler->step(); // d takes a's slot
    CHECK_EQ(rig.scheduler->runningCount(), 3);
    rig.scheduler->cancelJob(1); // b running, f waiting
    CHECK_EQ(rig.finishes[b], 1);
    CHECK_EQ(rig.finishes[f], 1);
    CHECK_EQ(rig.scheduler->runningCount(), 2);
    CHECK_EQ(rig.scheduler->waitingCount(), 0);
    rig.scheduler->step();
    rig.scheduler->cancel(b); // already over: nothing happens
    rig.scheduler->cancelAll();
    CHECK(!rig.scheduler->hasWork());
    for (RequestId id : {a, b, c, d, e, f}) {
        CHECK_EQ(rig.finishes[id], 1);
        CHECK(rig.results[id].status == RequestStatus::Cancelled);
    }
    const auto want = rig.expected(makePrompt(4, 3), 10);
    const auto& got = rig.results[c].tokens;
    CHECK(!got.empty());
    CHECK(std::equal(got.begin(), got.end(), want.begin()));

    const RequestId later = rig.submit(makePrompt(4, 7), 5);
    rig.runToEnd();
    CHECK_EQ(rig.results[later].tokens, rig.expected(makePrompt(4, 7), 5));
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(failingPolicyFailsOnlyItsRequest)
{
    SchedulerRig rig(settingsWith(4));
    const RequestId ok1 = rig.submit(makePrompt(4, 1), 6);
    const RequestId bad = rig.submit(makePrompt(5, 2), 6, Priority::Bulk, 0, 2);
    const RequestId ok2 = rig.submit(makePrompt(6, 3), 6);
    const RequestId badFirst = rig.submit(makePrompt(6, 4), 6, Priority::Bulk, 0, 0);
    rig.runToEnd();
    CHECK(rig.results[bad].status == RequestStatus::Failed);
    CHECK_EQ(rig.results[bad].error, std::string("policy failed at token 2"));
    CHECK_EQ(rig.results[bad].tokens.size(), std::size_t(2));
    CHECK(rig.results[badFirst].status == RequestStatus::Failed);
    CHECK_EQ(rig.results[badFirst].error, std::string("policy failed at token 0"));
    CHECK_EQ(rig.results[ok1].tokens, rig.expected(makePrompt(4, 1), 6));
    CHECK_EQ(rig.results[ok2].tokens, rig.expected(makePrompt(6, 3), 6));
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(decoderFailureFailsThatBatchAndGoesOn)
{
    SchedulerRig rig(settingsWith(4));
    const RequestId a = rig.submit(makePrompt(4, 1), 6);
    const RequestId b = rig.submit(makePrompt(4, 2), 6);
    rig.scheduler->step();
    rig.decoder.failNextDecode("device lost");
    rig.scheduler->step();
    CHECK(rig.results[a].status == RequestStatus::Failed);
    CHECK_EQ(rig.results[b].error, std::string("decode failed: device lost"));
    CHECK_EQ(rig.scheduler->runningCount(), 0);

    rig.decoder.failNextPrefill("bad kernel");
    const RequestId c = rig.submit(makePrompt(4, 3), 6);
    rig.scheduler->step();
    CHECK_EQ(rig.results[c].error, std::string("prefill failed: bad kernel"));

    const RequestId d = rig.submit(makePrompt(4, 4), 6);
    rig.runToEnd();
    CHECK(rig.results[d].status == RequestStatus::Done);
    CHECK_EQ(rig.results[d].tokens, rig.expected(makePrompt(4, 4), 6));
}

COUPLET_TEST(outOfDeviceMemoryLowersBatchWithWarning)
{
    SchedulerRig rig(settingsWith(8), 64, 3);
    CHECK_EQ(rig.scheduler->effectiveMaxBatch(), 3);
    CHECK_EQ(rig.scheduler->lastWarning(),
             std::string("GPU memory holds only 3 sequences; batch size lowered from 8 to 3"));
    std::vector<RequestId> ids;
    for (int i = 0; i < 6; ++i) ids.push_back(rig.submit(makePrompt(4, i), 5));
    rig.scheduler->step();
    CHECK_EQ(rig.scheduler->runningCount(), 3);

    rig.decoder.setRowsThatFit(5);
    rig.scheduler->setSettings(settingsWith(12));
    rig.runToEnd();
    CHECK_EQ(rig.scheduler->effectiveMaxBatch(), 5);
    CHECK_EQ(rig.scheduler->lastWarning(),
             std::string("GPU memory holds only 5 sequences; batch size lowered from 12 to 5"));
    for (int i = 0; i < 6; ++i) CHECK_EQ(rig.results[ids[i]].tokens, rig.expected(makePrompt(4, i), 5));
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(tooLongSequencesFailWithAMessage)
{
    SchedulerRig rig(settingsWith(4), 16);
    const RequestId tooLong = rig.submit(makePrompt(20, 1), 3);
    const RequestId runsOut = rig.submit(makePrompt(10, 2), 20);
    const RequestId fine = rig.submit(makePrompt(10, 3), 5);
    rig.runToEnd();
    CHECK(rig.results[tooLong].status == RequestStatus::Failed);
    CHECK_EQ(rig.results[tooLong].error,
             std::string("prompt of 20 tokens is longer than the model's maximum of 16 tokens"));
    CHECK(rig.results[runsOut].status == RequestStatus::Failed);
    CHECK_EQ(rig.results[runsOut].error,
             std::string("sequence reached the model's maximum length of 16 tokens without finishing"));
    CHECK_EQ(rig.results[runsOut].tokens.size(), std::size_t(7)); // positions 10..15, plus one unwritten
    CHECK_EQ(rig.results[fine].tokens, rig.expected(makePrompt(10, 3), 5));
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(callbacksMayCancelAndSubmitReentrantly)
{
    SchedulerRig rig(settingsWith(4));
    const RequestId victim = rig.submit(makePrompt(5, 2), 10);
    const RequestId other = rig.submit(makePrompt(6, 3), 10);
    RequestId follower = 0;
    int deltas = 0;
    SequenceRequest request;
    request.priority = Priority::Bulk;
    request.policy = std::make_unique<FakePolicy>(makePrompt(4, 1), 10);
    request.onDelta = [&](RequestId self, std::string_view) {
        ++deltas;
        if (deltas == 1) rig.scheduler->cancel(victim);
        if (deltas == 3) rig.scheduler->cancel(self);
    };
    request.onFinish = [&](const SequenceResult& r) {
        ++rig.finishes[r.id];
        rig.results[r.id] = r;
        follower = rig.submit(makePrompt(4, 9), 3);
        rig.scheduler->step(); // ignored inside a callback
    };
    const RequestId self = rig.scheduler->submit(std::move(request));
    rig.runToEnd();
    CHECK_EQ(deltas, 3);
    CHECK_EQ(rig.finishes[self], 1);
    CHECK_EQ(rig.finishes[victim], 1);
    CHECK(rig.results[self].status == RequestStatus::Cancelled);
    CHECK(rig.results[victim].status == RequestStatus::Cancelled);
    CHECK_EQ(rig.results[other].tokens, rig.expected(makePrompt(6, 3), 10));
    CHECK(follower != 0);
    CHECK_EQ(rig.results[follower].tokens, rig.expected(makePrompt(4, 9), 3));
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(destructorDropsWhatIsLeftWithoutCallbacks)
{
    SchedulerRig rig(settingsWith(2));
    std::vector<RequestId> ids;
    for (int i = 0; i < 3; ++i) ids.push_back(rig.submit(makePrompt(4, i), 10));
    rig.scheduler->step();
    CHECK_EQ(rig.scheduler->runningCount(), 2);
    rig.scheduler.reset();
    CHECK(rig.finishes.empty());
}
