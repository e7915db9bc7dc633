// The scheduler when the device runs out of memory in the middle of a step:
// in a prefill, nothing was chosen yet and the admitted sequences go back to
// the queue; in a decode, the batch's sequences fail with a message. Either
// way the batch size is lowered and later requests are served.

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
