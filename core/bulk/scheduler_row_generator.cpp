#include "scheduler_row_generator.h"

#include <algorithm>
#include <exception>

namespace couplet {

SchedulerRowGenerator::SchedulerRowGenerator(Scheduler& scheduler, CoupletSource source,
                                             std::string modelName, Options options)
    : m_scheduler(scheduler)
    , m_source(std::move(source))
    , m_modelName(std::move(modelName))
    , m_options(std::move(options))
{
}

// The scheduler runs cancelled requests' callbacks before cancelJob()
// returns, so none can reach this object after it is gone.
SchedulerRowGenerator::~SchedulerRowGenerator()
{
    cancelAll();
}

std::string SchedulerRowGenerator::validate(const GenerationSpec& spec) const
{
    return m_source.validate(spec);
}

void SchedulerRowGenerator::submit(const PromptRow& row, std::function<void(RowResult)> done)
{
    if (std::string error = m_source.validate(row.spec); !error.empty()) {
        RowResult invalid;
        invalid.status = RowStatus::Invalid;
        invalid.error = std::move(error);
        finishNow(std::move(done), std::move(invalid));
        return;
    }
    const std::uint64_t key = m_nextKey++;
    const int candidates = std::max(1, row.spec.candidates);
    // Policies first: if one cannot be made, nothing of this row is queued.
    std::vector<std::unique_ptr<TokenPolicy>> policies;
    try {
        for (int i = 0; i < candidates; ++i) policies.push_back(m_source.makePolicy(row.spec, i));
    } catch (const std::exception& e) {
        RowResult failed;
        failed.status = RowStatus::Failed;
        failed.error = e.what();
        finishNow(std::move(done), std::move(failed));
        return;
    }
    Row& entry = m_rows[key];
    entry.done = std::move(done);
    entry.submitted = Clock::now();
    entry.remaining = candidates;
    for (auto& policy : policies) {
        SequenceRequest request;
        request.priority = Priority::Bulk;
        request.jobId = m_options.jobId;
        request.policy = std::move(policy);
        request.onFinish = [this, key](const SequenceResult& result) { onCandidateFinished(key, result); };
        m_scheduler.submit(std::move(request));
    }
}

void SchedulerRowGenerator::finishNow(std::function<void(RowResult)> done, RowResult result)
{
    result.model = m_modelName;
    m_finished.emplace_back(std::move(done), std::move(result));
}

void SchedulerRowGenerator::onCandidateFinished(std::uint64_t key, const SequenceResult& result)
{
    const auto it = m_rows.find(key);
    if (it == m_rows.end()) return;   // dropped by cancelAll()
    if (m_options.observer) m_options.observer(result);
    Row& row = it->second;
    if (result.status == RequestStatus::Done && result.policy) {
        try {
            row.candidates.push_back(m_source.coupletOf(*result.policy));
        } catch (const std::exception& e) {
            if (row.firstError.empty()) row.firstError = e.what();
        }
    } else if (row.firstError.empty()) {
        row.firstError = result.error.empty() ? "generation was cancelled" : result.error;
    }
    if (--row.remaining > 0) return;
    RowResult finished = resultOf(row);
    finished.latencyMs =
        std::chrono::duration<double, std::milli>(Clock::now() - row.submitted).count();
    std::function<void(RowResult)> done = std::move(row.done);
    m_rows.erase(it);
    finishNow(std::move(done), std::move(finished));
}

RowResult SchedulerRowGenerator::resultOf(const Row& row) const
{
    RowResult result;
    if (row.candidates.empty()) {
        result.status = RowStatus::Failed;
        result.error = row.firstError.empty() ? "no candidate was generated" : row.firstError;
        return result;
    }
    result.couplet = *std::max_element(
        row.candidates.begin(), row.candidates.end(),
        [](const Couplet& a, const Couplet& b) { return a.score < b.score; });
    return result;
}

bool SchedulerRowGenerator::deliverFinished()
{
    bool any = false;
    while (!m_finished.empty()) {
        auto [done, result] = std::move(m_finished.front());
        m_finished.pop_front();
        done(std::move(result));
        any = true;
    }
    return any;
}

bool SchedulerRowGenerator::poll()
{
    bool stepped = false;
    if (m_options.stepsScheduler && m_scheduler.hasWork() && m_scheduler.msUntilReady() == 0) {
        m_scheduler.step();
        stepped = true;
    }
    return deliverFinished() || stepped;
}

void SchedulerRowGenerator::cancelAll()
{
    m_rows.clear();
    m_finished.clear();
    m_scheduler.cancelJob(m_options.jobId);
}

} // namespace couplet
