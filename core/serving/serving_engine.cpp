#include "serving_engine.h"

#include "serving_groups.h"

#include <iostream>
#include <utility>

namespace couplet {

ServingEngine::ServingEngine(Decoder& decoder, ServedModel model, ServingSettings settings, ServingMetrics* metrics)
    : m_model(std::make_shared<const ServedModel>(std::move(model))), m_settings(settings), m_metrics(metrics), m_scheduler(decoder, settings.scheduler)
{
    m_slots = m_scheduler.effectiveMaxBatch();
    m_thread = std::thread([this] { run(); });
}

ServingEngine::~ServingEngine()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

std::shared_ptr<ServingJob> ServingEngine::submit(const std::vector<GenerationSpec>& specs, int n, int maxTokens,
                                                  Priority priority)
{
    const int count = ServingGroups::sequencesFor(specs, n);
    // Reserve room first, so that concurrent submits cannot overfill the queue together.
    // A request larger than the whole queue runs when it finds the engine idle:
    // a 429 would tell its client to retry what could never fit.
    const int before = m_outstanding.fetch_add(count);
    if (before + count > capacity() && before > 0) {
        m_outstanding -= count;
        throw QueueFull{before};
    }
    auto job = std::make_shared<ServingJob>(m_nextJob++, static_cast<int>(specs.size()) * n, sequenceScripts(specs, n));
    ServingGroupsOptions options;
    options.priority = priority;
    options.jobId = job->id();
    options.n = n;
    options.maxTokens = maxTokens;
    options.metrics = m_metrics;
    options.onSequence = [this](const SequenceResult& result) {
        if (result.status == RequestStatus::Cancelled) ++m_cancelled;
        --m_outstanding;
    };
    Command command;
    try {
        command.submit = ServingGroups::make(*m_model->generator, specs, job, std::move(options)).requests;
    } catch (...) {
        m_outstanding -= count;
        throw;
    }
    {
        std::lock_guard lock(m_mutex);
        m_inbox.push_back(std::move(command));
    }
    m_wake.notify_all();
    return job;
}

void ServingEngine::cancel(std::uint64_t jobId)
{
    {
        std::lock_guard lock(m_mutex);
        m_inbox.push_back({{}, jobId});
    }
    m_wake.notify_all();
}

EngineGauges ServingEngine::gauges() const { return {m_waiting, m_running, m_slots, m_steps}; }

ServingStats ServingEngine::stats() const
{
    ServingStats s;
    s.waiting = m_waiting;
    s.running = m_running;
    s.slots = m_slots;
    s.outstanding = m_outstanding;
    s.steps = m_steps;
    s.decodedTokens = m_decoded;
    s.cancelled = m_cancelled;
    s.cancelRequests = m_cancelRequests;
    s.largestAdmission = m_largestAdmission;
    return s;
}

void ServingEngine::apply(std::vector<Command>& commands)
{
    for (auto& c : commands) {
        for (auto& r : c.submit) m_scheduler.submit(std::move(r));
        if (c.cancelJob != 0) {
            ++m_cancelRequests;
            m_scheduler.cancelJob(c.cancelJob);
        }
    }
    m_waiting = m_scheduler.waitingCount();
    m_running = m_scheduler.runningCount();
}

void ServingEngine::runStep()
{
    try {
        const StepStats s = m_scheduler.step();
        m_decoded += s.decoded;
        if (s.prefilled > m_largestAdmission) m_largestAdmission = s.prefilled;
        m_waiting = s.waiting;
        m_running = s.running;
        m_slots = m_scheduler.effectiveMaxBatch();
        ++m_steps;
    } catch (const std::exception& e) {
        // A step that fails as a whole (the device) fails everything in it; the server goes on.
        std::cerr << "couplet serve: engine step failed: " << e.what() << '\n';
        m_scheduler.cancelAll();
    }
}

void ServingEngine::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        std::vector<Command> commands = std::exchange(m_inbox, {});
        lock.unlock();
        apply(commands);
        const bool work = m_scheduler.hasWork();
        const int wait = work ? m_scheduler.msUntilReady() : 0;
        if (work && wait == 0) runStep();
        lock.lock();
        if (!m_inbox.empty() || m_stopping) continue;
        if (!work) m_wake.wait(lock, [&] { return m_stopping || !m_inbox.empty(); });
        else if (wait > 0) m_wake.wait_for(lock, std::chrono::milliseconds(wait), [&] { return m_stopping || !m_inbox.empty(); });
    }
    lock.unlock();
    m_scheduler.cancelAll();
    m_waiting = 0;
    m_running = 0;
}

} // namespace couplet
