#include "api_bridge.h"

#include "engine_controller.h"

namespace couplet {

ApiBridge::ApiBridge(EngineController& engine, std::shared_ptr<ServingMetrics> metrics, int maxOutstanding)
    : m_engine(engine), m_metrics(std::move(metrics)), m_maxOutstanding(maxOutstanding)
{
}

std::shared_ptr<const EngineModel> ApiBridge::currentModel() const
{
    const LoadedModel loaded = m_engine.loadedModel();
    std::lock_guard lock(m_mutex);
    if (loaded.backend != m_modelOf) {
        m_modelOf = loaded.backend;
        m_model.reset();
        if (const auto backend = loaded.backend) {
            EngineModel model;
            model.card = ModelCard::read(loaded.dir);
            model.validate = [backend](const GenerationSpec& spec) { return backend->validate(spec); };
            model.makePolicy = [backend](const GenerationSpec& spec, int index) { return backend->makePolicy(spec, index); };
            m_model = std::make_shared<const EngineModel>(std::move(model));
        }
    }
    return m_model;
}

std::shared_ptr<ServingJob> ApiBridge::submit(const std::vector<GenerationSpec>& specs, int n, int maxTokens)
{
    const int count = int(specs.size()) * n;
    // Room first, so that concurrent submits cannot overfill the queue together.
    const int before = m_outstanding->fetch_add(count);
    if (before + count > m_maxOutstanding) {
        *m_outstanding -= count;
        throw QueueFull{before};
    }
    const quint64 id = m_engine.allocateId();
    auto job = std::make_shared<ServingJob>(id, count, sequenceScripts(specs, n));
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
