#pragma once

#include "decoder.h"
#include "scheduler_settings.h"
#include "token_policy.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace couplet {

using RequestId = std::uint64_t;
using Clock = std::chrono::steady_clock;

enum class Priority { Interactive, Bulk };
enum class RequestStatus { Waiting, Running, Paused, Done, Failed, Cancelled };

struct RequestMetrics {
    double queueWaitMs = 0;   // submit -> admitted into a slot (first time)
    double firstTokenMs = 0;  // submit -> first generated token
    double totalMs = 0;       // submit -> finished
    int promptTokens = 0;
    int generatedTokens = 0;
    int preemptions = 0;      // times paused for interactive work
};

struct SequenceResult {
    RequestId id = 0;
    std::uint64_t jobId = 0;
    RequestStatus status = RequestStatus::Done;
    std::string error;        // set when status == Failed
    std::vector<int> tokens;  // generated tokens
    double logProb = 0;
    RequestMetrics metrics;
    // The request's policy, kept alive for the onFinish callback (which may
    // run after the sequence left its slot) to read structured results.
    std::shared_ptr<const TokenPolicy> policy;
};

struct SequenceRequest {
    Priority priority = Priority::Interactive;
    std::uint64_t jobId = 0;  // groups sequences (a bulk job, candidates) for cancelJob()
    std::unique_ptr<TokenPolicy> policy;
    // Called on the scheduler's thread with each new piece of text.
    std::function<void(RequestId, std::string_view)> onDelta;
    // Called exactly once per request, whatever its outcome.
    std::function<void(const SequenceResult&)> onFinish;
};

// What one step did, for metrics and the benchmark.
struct StepStats {
    int decoded = 0;          // sequences advanced by decode this step
    int prefilled = 0;        // sequences admitted (prefilled) this step
    int prefillTokens = 0;
    int finished = 0;
    int running = 0;          // sequences in slots after the step
    int waiting = 0;          // queued after the step
    double stepMs = 0;
};

class Scheduler {
public:
    using TimeSource = std::function<Clock::time_point()>;

    explicit Scheduler(Decoder& decoder, SchedulerSettings settings = {},
                       TimeSource now = [] { return Clock::now(); });
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    RequestId submit(SequenceRequest request);
    void cancel(RequestId id);
    void cancelJob(std::uint64_t jobId);
    void cancelAll();

    // Takes effect at the next step; a smaller maxBatch lets running sequences finish.
    void setSettings(const SchedulerSettings& settings);
    SchedulerSettings settings() const;

    bool hasWork() const;
    // Milliseconds to wait before step() is worth calling (the batching
    // window); 0 when a step should run now.
    int msUntilReady() const;
    // One iteration: advance running sequences by one token, then admit
    // waiting ones into free slots within the token budget. When interactive
    // requests wait, the order is swapped (admit, then decode) so that their
    // first token does not wait behind a whole decode pass of bulk work.
    StepStats step();

    int runningCount() const;
    int waitingCount() const;
    // Slots the engine actually has: maxBatch, or lower after running out of
    // memory; 0 when the device cannot hold a single sequence (requests then fail).
    int effectiveMaxBatch() const;
    // Last message about the device's memory (batch size lowered, or no
    // sequence fits), empty if none.
    std::string lastWarning() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace couplet
