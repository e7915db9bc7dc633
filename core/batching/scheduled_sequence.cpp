#include "scheduled_sequence.h"

namespace couplet {

SequenceResult ScheduledSequence::result(std::string error, Clock::time_point now) const
{
    SequenceResult r;
    r.id = id;
    r.jobId = jobId;
    r.status = status;
    r.error = std::move(error);
    r.tokens = policy->generated();
    r.logProb = policy->logProb();
    r.policy = policy;
    auto& m = r.metrics;
    // Never admitted (cancelled or failed in the queue): it waited the whole time.
    m.queueWaitMs = msBetween(submitted, admitted.value_or(now));
    m.firstTokenMs = firstToken ? msBetween(submitted, *firstToken) : 0.0;
    m.totalMs = msBetween(submitted, now);
    m.promptTokens = promptTokens;
    m.generatedTokens = static_cast<int>(r.tokens.size());
    m.preemptions = preemptions;
    return r;
}

} // namespace couplet
