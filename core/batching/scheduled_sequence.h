#pragma once

#include "scheduler.h"

#include <cstdint>
#include <optional>

namespace couplet {

inline double msBetween(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double, std::milli>(to - from).count();
}

// One submitted request as the scheduler tracks it, from the queue through a
// KV row to its end. Owned by either the RequestQueue or the running rows.
struct ScheduledSequence {
    RequestId id = 0;
    Priority priority = Priority::Interactive;
    std::uint64_t jobId = 0;
    std::shared_ptr<TokenPolicy> policy; // shared with the SequenceResult
    std::function<void(RequestId, std::string_view)> onDelta;
    std::function<void(const SequenceResult&)> onFinish;

    RequestStatus status = RequestStatus::Waiting;
    // Tokens written into the sequence's KV row (prompt, then generated ones).
    int position = 0;
    // Chosen by the policy but not yet written into the row; the next decode writes it.
    int pendingToken = 0;
    int promptTokens = 0;
    // Increases with every admission; the highest running bulk one is preempted first.
    std::uint64_t admitOrder = 0;
    int preemptions = 0;

    Clock::time_point submitted;
    std::optional<Clock::time_point> admitted;
    std::optional<Clock::time_point> firstToken;

    // Tokens a (re-)admission prefills: the prompt plus everything generated so
    // far, so a preempted sequence resumes where it stopped.
    std::vector<int> prefillTokens() const
    {
        std::vector<int> tokens = policy->promptTokens();
        const auto& done = policy->generated();
        tokens.insert(tokens.end(), done.begin(), done.end());
        return tokens;
    }
    // The outcome as reported to onFinish, with its status already set.
    SequenceResult result(std::string error, Clock::time_point now) const;

    int prefillLength() const
    {
        return promptTokens + static_cast<int>(policy->generated().size());
    }
};

using SequencePtr = std::unique_ptr<ScheduledSequence>;

} // namespace couplet
