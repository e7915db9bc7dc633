#pragma once

#include "fake_decoder.h"
#include "fake_policy.h"

#include "scheduler.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace couplet::test {

// A scheduler over a FakeDecoder with a fake clock, recording every callback.
struct SchedulerRig {
    explicit SchedulerRig(SchedulerSettings settings, int maxLength = 64, int rowsThatFit = 1 << 20)
        : decoder(97, maxLength)
    {
        decoder.setRowsThatFit(rowsThatFit);
        scheduler = std::make_unique<Scheduler>(decoder, settings, [this] { return time; });
    }

    RequestId submit(std::vector<int> prompt, int maxTokens, Priority priority = Priority::Bulk,
                     std::uint64_t jobId = 0, int throwAt = -1)
    {
        SequenceRequest request;
        request.priority = priority;
        request.jobId = jobId;
        request.policy = std::make_unique<FakePolicy>(std::move(prompt), maxTokens, -1, throwAt);
        request.onDelta = [this](RequestId id, std::string_view delta) { text[id] += delta; };
        request.onFinish = [this](const SequenceResult& r) {
            results[r.id] = r;
            ++finishes[r.id];
        };
        return scheduler->submit(std::move(request));
    }

    int runToEnd(int maxSteps = 10000)
    {
        int steps = 0;
        while (scheduler->hasWork() && steps < maxSteps) {
            scheduler->step();
            ++steps;
        }
        return steps;
    }

    // What the fake model generates for `prompt` when run alone, straight
    // from the decoder's rule, independent of the scheduler.
    std::vector<int> expected(std::vector<int> prompt, int maxTokens) const
    {
        std::vector<int> out;
        for (int i = 0; i < maxTokens; ++i) {
            const int token = decoder.nextToken(prompt);
            out.push_back(token);
            prompt.push_back(token);
        }
        return out;
    }

    void advanceMs(int ms) { time += std::chrono::milliseconds(ms); }

    FakeDecoder decoder;
    Clock::time_point time = Clock::time_point(std::chrono::seconds(1000));
    std::map<RequestId, SequenceResult> results;
    std::map<RequestId, int> finishes;
    std::map<RequestId, std::string> text;
    // Last, so it goes first: nothing it calls back into is gone yet.
    std::unique_ptr<Scheduler> scheduler;
};

// A prompt of `length` tokens starting with <bos> = 1, distinct per seed.
inline std::vector<int> makePrompt(int length, int seed)
{
    std::vector<int> prompt{1};
    for (int i = 1; i < length; ++i) prompt.push_back((seed * 7 + i * 3) % 90 + 5);
    return prompt;
}

inline std::string asText(const std::vector<int>& tokens)
{
    std::string s;
    for (int t : tokens) s += std::to_string(t) + " ";
    return s;
}

} // namespace couplet::test
