#include "scheduler_row_generator.h"

#include <exception>

namespace couplet {

SchedulerRowGenerator::SchedulerRowGenerator(Scheduler& scheduler, const CoupletGenerator& generator,
                                             std::string modelName, Options options)
    : m_scheduler(scheduler)
    , m_generator(generator)
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
    return m_generator.validate(spec);
}

GenerationSpec SchedulerRowGenerator::groupSpec(const GenerationSpec& rowSpec)
{
    GenerationSpec spec = rowSpec;
    if (spec.bestOf <= 0 && spec.candidates > 1) spec.bestOf = spec.candidates;
    if (spec.bestOf <= 0 && spec.rerank && !spec.sampling.greedy) spec.bestOf = kBulkRerankFactor;
    spec.candidates = 1;
    return spec;
}

void SchedulerRowGenerator::submit(const PromptRow& row, std::function<void(RowResult)> done)
{
    if (std::string error = m_generator.validate(row.spec); !error.empty()) {
        RowResult invalid;
        invalid.status = RowStatus::Invalid;
        invalid.error = std::move(error);
        finishNow(std::move(done), std::move(invalid));
        return;
    }
    const std::uint64_t key = m_nextKey++;
    CandidateGroupOptions options;
    options.priority = Priority::Bulk;
    options.jobId = m_options.jobId;
    if (m_options.observer) options.onSequence = [observer = m_options.observer](int, const SequenceResult& r) { observer(r); };
    options.onDone = [this, key](GroupResult result) { onRowFinished(key, std::move(result)); };
    std::shared_ptr<CandidateGroup> group;
    try {
        GenerationSpec spec = groupSpec(row.spec);
        if (m_alternatives) spec.candidates = sampledCandidates(spec); // the same pool, all of it ranked
        group = CandidateGroup::create(m_generator, spec, std::move(options));
    } catch (const std::exception& e) {
        RowResult failed;
        failed.status = RowStatus::Failed;
        failed.error = e.what();
        finishNow(std::move(done), std::move(failed));
        return;
    }
    m_rows[key] = Row{std::move(done), Clock::now()};
    group->submitTo(m_scheduler);
}

void SchedulerRowGenerator::finishNow(std::function<void(RowResult)> done, RowResult result)
{
    result.model = m_modelName;
    m_finished.emplace_back(std::move(done), std::move(result));
}

void SchedulerRowGenerator::onRowFinished(std::uint64_t key, GroupResult group)
{
    const auto it = m_rows.find(key);
    if (it == m_rows.end()) return;   // dropped by cancelAll()
    RowResult finished = resultOf(group);
    finished.latencyMs = std::chrono::duration<double, std::milli>(Clock::now() - it->second.submitted).count();
    std::function<void(RowResult)> done = std::move(it->second.done);
    m_rows.erase(it);
    finishNow(std::move(done), std::move(finished));
}

RowResult SchedulerRowGenerator::resultOf(GroupResult& group)
{
    RowResult result;
    if (group.couplets.empty()) {
        result.status = RowStatus::Failed;
        result.error = !group.error.empty() ? group.error
                       : group.cancelled    ? "generation was cancelled"
                                            : "no candidate was generated";
        return result;
    }
    result.couplet = std::move(group.couplets.front());
    for (std::size_t i = 1; i < group.couplets.size(); ++i) result.alternatives.push_back(std::move(group.couplets[i]));
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
