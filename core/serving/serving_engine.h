#pragma once

#include "completion_engine.h"
#include "scheduler.h"

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

struct ServingStats {
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

// The one engine behind the server: one thread owns the one Scheduler and
// runs steps while there is work. HTTP threads hand it jobs and cancels
// through an inbox (a mutex and a condition variable) that the engine
// empties between steps, so the scheduler itself needs no locks.
class ServingEngine : public CompletionEngine {
public:
    ServingEngine(Decoder& decoder, ServedModel model, ServingSettings settings = {}, ServingMetrics* metrics = nullptr);
    ~ServingEngine() override;
    ServingEngine(const ServingEngine&) = delete;
    ServingEngine& operator=(const ServingEngine&) = delete;

    const ServedModel& model() const { return *m_model; }
    std::shared_ptr<const ServedModel> currentModel() const override { return m_model; }
    std::shared_ptr<ServingJob> submit(const std::vector<GenerationSpec>& specs, int n, int maxTokens) override
    {
        return submit(specs, n, maxTokens, Priority::Interactive);
    }
    std::shared_ptr<ServingJob> submit(const std::vector<GenerationSpec>& specs, int n, int maxTokens,
                                       Priority priority);
    void cancel(std::uint64_t jobId) override;
    ServingStats stats() const;
    EngineGauges gauges() const override;
    int capacity() const override { return m_settings.scheduler.maxBatch + m_settings.maxQueue; }

private:
    struct Command {
        std::vector<SequenceRequest> submit;
        std::uint64_t cancelJob = 0;
    };

    void run();
    void apply(std::vector<Command>& commands);
    void runStep();

    std::shared_ptr<const ServedModel> m_model;
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
