#include "bulk_row_generator.h"

namespace couplet {

BulkRowGenerator::BulkRowGenerator(Scheduler& scheduler, const EngineBackend& backend, std::uint64_t jobId,
                                   std::string modelName, Observer observer)
    : m_scheduler(scheduler), m_backend(backend), m_jobId(jobId), m_modelName(std::move(modelName)),
      m_observer(std::move(observer))
{
}

BulkRowGenerator::~BulkRowGenerator() { cancelAll(); }

void BulkRowGenerator::submit(const PromptRow& row, std::function<void(RowResult)> done)
{
    SequenceRequest request;
    request.priority = Priority::Bulk;
    request.jobId = m_jobId;
    try {
        request.policy = m_backend.makePolicy(row.spec, 0);
    } catch (const std::exception& e) {
        RowResult result;
        result.status = RowStatus::Failed;
        result.error = e.what();
        result.model = m_modelName;
        done(std::move(result));
        return;
    }
    ++m_inFlight;
    const std::weak_ptr<int> generation = m_generation;
    const int mine = *m_generation;
    request.onFinish = [this, generation, mine, done = std::move(done)](const SequenceResult& r) {
        const auto current = generation.lock();
        if (!current || *current != mine)
            return;
        --m_inFlight;
        if (m_observer)
            m_observer(r);
        RowResult result;
        result.model = m_modelName;
        result.latencyMs = r.metrics.totalMs;
        if (r.policy)
            result.couplet = m_backend.coupletOf(*r.policy);
        if (r.status != RequestStatus::Done) {
            result.status = RowStatus::Failed;
            result.error = r.error.empty() ? std::string("cancelled") : r.error;
        }
        m_finished.push_back({done, std::move(result)});
    };
    m_scheduler.submit(std::move(request));
}

bool BulkRowGenerator::poll()
{
    if (m_finished.empty())
        return false;
    std::vector<Finished> finished;
    finished.swap(m_finished);
    for (Finished& f : finished)
        f.done(std::move(f.result));
    return true;
}

void BulkRowGenerator::cancelAll()
{
    ++*m_generation;
    m_scheduler.cancelJob(m_jobId);
    m_finished.clear();
    m_inFlight = 0;
}

std::string BulkRowGenerator::validate(const GenerationSpec& spec) const { return m_backend.validate(spec); }

} // namespace couplet
