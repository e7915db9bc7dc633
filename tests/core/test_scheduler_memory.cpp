// The scheduler when the device runs out of memory while reserving KV rows
// (it never believes in rows the decoder did not accept, and says so) and in
// the middle of a step: in a prefill, nothing was chosen yet and the admitted
// sequences go back to the queue; in a decode, the batch's sequences fail
// with a message. Either way the batch is lowered and later requests served.
#include "check.h"
#include "scheduler_rig.h"

using namespace couplet;
using namespace couplet::test;

namespace {

// No batching window: every step runs at once.
SchedulerSettings settingsWith(int maxBatch) { return {maxBatch, 0}; }

// A device whose estimate of what fits is always one row too hopeful, as a
// fragmented GPU heap can be: each refusal says rows - 1 would fit.
class HopefulDecoder : public FakeDecoder {
public:
    explicit HopefulDecoder(int rowsThatReallyFit) : m_fit(rowsThatReallyFit) {}
    void reserveRows(int rows) override
    {
        if (rows > m_fit) throw OutOfDeviceMemory{rows - 1};
        FakeDecoder::reserveRows(rows);
    }

private:
    int m_fit;
};

} // namespace

COUPLET_TEST(noRowAtAllFailsRequestsWithAMessage)
{
    SchedulerRig rig(settingsWith(4), 64, 0);
    CHECK_EQ(rig.scheduler->effectiveMaxBatch(), 0);
    CHECK_EQ(rig.decoder.rowCapacity(), 0);
    CHECK(rig.scheduler->lastWarning().find("no sequence can run") != std::string::npos);
    const RequestId a = rig.submit(makePrompt(4, 1), 5);
    const RequestId b = rig.submit(makePrompt(4, 2), 5, Priority::Interactive);
    rig.runToEnd(10);
    CHECK(!rig.scheduler->hasWork());
    for (RequestId id : {a, b}) {
        CHECK_EQ(rig.finishes[id], 1);
        CHECK(rig.results[id].status == RequestStatus::Failed);
        CHECK(rig.results[id].error.find("out of device memory") == 0);
    }
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(keepsTryingFewerRowsUntilTheDecoderAcceptsSome)
{
    HopefulDecoder decoder(2);
    Scheduler scheduler(decoder, settingsWith(8));
    CHECK_EQ(decoder.rowCapacity(), 2);
    CHECK_EQ(scheduler.effectiveMaxBatch(), 2);
    CHECK_EQ(scheduler.lastWarning(),
             std::string("GPU memory holds only 2 sequences; batch size lowered from 8 to 2"));
    int done = 0;
    for (int i = 0; i < 5; ++i) {
        SequenceRequest request;
        request.policy = std::make_unique<FakePolicy>(makePrompt(4, i), 6);
        request.onFinish = [&done](const SequenceResult& r) { done += r.status == RequestStatus::Done; };
        scheduler.submit(std::move(request));
    }
    for (int steps = 0; scheduler.hasWork() && steps < 1000; ++steps) scheduler.step();
    CHECK_EQ(done, 5);
    CHECK(decoder.violations().empty());
}

COUPLET_TEST(aFailedGrowKeepsTheRowsItHad)
{
    SchedulerRig rig(settingsWith(2), 64, 2);
    CHECK_EQ(rig.scheduler->effectiveMaxBatch(), 2);
    rig.decoder.setRowsThatFit(0);   // nothing more fits now
    rig.scheduler->setSettings(settingsWith(6));
    std::vector<RequestId> ids;
    for (int i = 0; i < 4; ++i) ids.push_back(rig.submit(makePrompt(4, i), 5));
    rig.runToEnd();
    CHECK_EQ(rig.decoder.rowCapacity(), 2);
    CHECK_EQ(rig.scheduler->effectiveMaxBatch(), 2);
    CHECK(rig.scheduler->lastWarning().find("batch size lowered from 6 to 2") != std::string::npos);
    for (RequestId id : ids) CHECK(rig.results[id].status == RequestStatus::Done);
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(outOfMemoryInPrefillRequeuesAndLowersTheBatch)
{
    SchedulerRig rig(settingsWith(4));
    std::vector<RequestId> ids;
    for (int i = 0; i < 4; ++i) ids.push_back(rig.submit(makePrompt(5, i), 6));
    rig.decoder.runOutOfMemoryInNextPrefill(2);
    rig.scheduler->step();
    CHECK(rig.results.empty());   // nothing failed: they wait again
    CHECK_EQ(rig.scheduler->effectiveMaxBatch(), 2);
    CHECK_EQ(rig.scheduler->lastWarning(), std::string("GPU memory holds only 2 sequences; batch size lowered from 4 to 2"));

    rig.runToEnd();
    for (int i = 0; i < 4; ++i) {
        CHECK(rig.results[ids[i]].status == RequestStatus::Done);
        CHECK_EQ(rig.results[ids[i]].tokens, rig.expected(makePrompt(5, i), 6));
        CHECK_EQ(rig.finishes[ids[i]], 1);
    }
    CHECK_EQ(rig.decoder.maxBatchSeen, 2);
    CHECK(rig.decoder.violations().empty());
}

COUPLET_TEST(outOfMemoryInDecodeFailsTheBatchAndLowersIt)
{
    SchedulerRig rig(settingsWith(4));
    std::vector<RequestId> ids;
    for (int i = 0; i < 4; ++i) ids.push_back(rig.submit(makePrompt(5, i), 6));
    rig.scheduler->step();   // prefill: all four running
    CHECK_EQ(rig.scheduler->runningCount(), 4);
    rig.decoder.runOutOfMemoryInNextDecode(1);
    rig.scheduler->step();
    for (RequestId id : ids) {
        CHECK(rig.results[id].status == RequestStatus::Failed);
        CHECK_EQ(rig.results[id].error, std::string("decode failed: out of device memory"));
    }
    CHECK_EQ(rig.scheduler->runningCount(), 0);
    CHECK_EQ(rig.scheduler->effectiveMaxBatch(), 1);

    // Later requests run, one at a time, to the end.
    const RequestId a = rig.submit(makePrompt(4, 7), 5);
    const RequestId b = rig.submit(makePrompt(4, 8), 5);
    rig.decoder.maxBatchSeen = 0;
    rig.runToEnd();
    CHECK(rig.results[a].status == RequestStatus::Done);
    CHECK_EQ(rig.results[b].tokens, rig.expected(makePrompt(4, 8), 5));
    CHECK_EQ(rig.decoder.maxBatchSeen, 1);
    CHECK(rig.decoder.violations().empty());
}
