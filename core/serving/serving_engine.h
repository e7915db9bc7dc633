#pragma once

#include "engine_model.h"
#include "scheduler.h"
#include "serving_job.h"
#include "serving_metrics.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace couplet {

struct ServingSettings {
    SchedulerSettings scheduler;
    int maxQueue = 256;       // sequences waiting for a slot beyond the running ones
};

struct EngineStats {
    int waiting = 0;
    int running = 0;
    int slots = 0;
    int outstanding = 0;      // submitted and not yet finished
    long long steps = 0;
    long long decodedTokens = 0;  // sequences advanced by decode, summed over steps
    long long cancelled = 0;      // sequences that ended cancelled
    long long cancelRequests = 0; // jobs whose cancel reached the engine
    int largestAdmission = 0;     // most sequences prefilled by one step
};

// Thrown by submit() when the queue has no room.
struct QueueFull {
    int outstanding = 0;
};

// The one engine behind the server: one thread owns the one Scheduler and
// runs steps while there is work. HTTP threads hand it jobs and cancels
// through an inbox (a mutex and a condition variable) that the engine
// empties between steps, so the scheduler itself needs no locks.
class ServingEngine {
public:
    ServingEngine(Decoder& decoder, EngineModel model, ServingSettings settings = {}, ServingMetrics* metrics = nullptr);
    ~ServingEngine();
    ServingEngine(const ServingEngine&) = delete;
    ServingEngine& operator=(const ServingEngine&) = delete;

    const EngineModel& model() const { return m_model; }
    // n candidates of every spec (validated by the caller), submitted in one
    // go so they are admitted together. Sequence i*n+c is candidate c of
    // spec i. maxTokens > 0 cuts each one short. Throws QueueFull.
    std::shared_ptr<ServingJob> submit(const std::vector<GenerationSpec>& specs, int n, int maxTokens,
                                       Priority priority = Priority::Interactive);
    // Frees the job's slots at the engine's next turn (within one step).
    void cancel(std::uint64_t jobId);
    EngineStats stats() const;
    int capacity() const { return m_settings.scheduler.maxBatch + m_settings.maxQueue; }

private:
    struct Command {
        std::vector<SequenceRequest> submit;
        std::uint64_t cancelJob = 0;
    };

    void run();
    void apply(std::vector<Command>& commands);
    void runStep();
    SequenceRequest requestFor(const std::shared_ptr<ServingJob>& job, int index, std::unique_ptr<TokenPolicy> policy,
                               Priority priority);

    EngineModel m_model;
    ServingSettings m_settings;
    ServingMetrics* m_metrics;
    Scheduler m_scheduler;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::vector<Command> m_inbox;
    bool m_stopping = false;

    std::atomic<int> m_outstanding{0};
    std::atomic<std::uint64_t> m_nextJob{1};
    std::atomic<int> m_waiting{0}, m_running{0}, m_slots{0};
    std::atomic<int> m_largestAdmission{0};
    std::atomic<long long> m_steps{0}, m_decoded{0}, m_cancelled{0}, m_cancelRequests{0};
    std::thread m_thread;
};

} // namespace couplet
