#include "api_bridge.h"

#include "engine_controller.h"
#include "serving_groups.h"

namespace couplet {

ApiBridge::ApiBridge(EngineController& engine, std::shared_ptr<ServingMetrics> metrics, int maxOutstanding)
    : m_engine(engine), m_metrics(std::move(metrics)), m_maxOutstanding(maxOutstanding)
{
}

std::shared_ptr<const ServedModel> ApiBridge::currentModel() const
{
    const LoadedModel loaded = m_engine.loadedModel();
    std::lock_guard lock(m_mutex);
    if (loaded.generator != m_modelOf) {
        m_modelOf = loaded.generator;
        m_model.reset();
        if (loaded.generator)
            m_model = std::make_shared<const ServedModel>(ServedModel{ModelCard::read(loaded.dir), loaded.generator});
    }
    return m_model;
}

std::shared_ptr<ServingJob> ApiBridge::submit(const std::vector<GenerationSpec>& specs, int n, int maxTokens)
{
    const int count = ServingGroups::sequencesFor(specs, n);
    // Room first, so that concurrent submits cannot overfill the queue together.
    const int before = m_outstanding->fetch_add(count);
    if (before + count > m_maxOutstanding) {
        *m_outstanding -= count;
        throw QueueFull{before};
    }
    const quint64 id = m_engine.allocateId();
    auto job = std::make_shared<ServingJob>(id, int(specs.size()) * n, sequenceScripts(specs, n));
    m_engine.submitApi(ApiJob(id, job, specs, n, maxTokens, m_outstanding, m_metrics));
    return job;
}

void ApiBridge::cancel(std::uint64_t jobId) { m_engine.cancel(jobId); }

EngineGauges ApiBridge::gauges() const
{
    std::lock_guard lock(m_mutex);
    return m_gauges;
}

void ApiBridge::setGauges(const EngineGauges& gauges)
{
    std::lock_guard lock(m_mutex);
    m_gauges = gauges;
}

} // namespace couplet
