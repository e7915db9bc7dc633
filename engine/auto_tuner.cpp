#include "auto_tuner.h"

#include "percentile.h"

#include <algorithm>
#include <chrono>

namespace couplet {
namespace {

// Enough sequences to fill every slot twice, so admission and decoding overlap
// as they do under real load.
int sequencesFor(int batch) { return std::clamp(2 * batch, 8, 256); }

} // namespace

AutoTuner::AutoTuner(Scheduler& scheduler, const CoupletGenerator& generator, int maxStepTokens, QList<int> batchSizes)
    : m_scheduler(scheduler), m_generator(generator), m_maxStepTokens(maxStepTokens), m_batchSizes(std::move(batchSizes))
{
}

AutoTuner::~AutoTuner()
{
    if (m_outstanding > 0)
        m_scheduler.cancelJob(kJobId);
}

bool AutoTuner::startNext()
{
    if (m_batchSizes.isEmpty())
        return false;
    m_batch = m_batchSizes.takeFirst();
    SchedulerSettings settings;
    settings.maxBatch = m_batch;
    settings.maxWaitMs = 0;
    settings.maxStepTokens = m_maxStepTokens;
    m_scheduler.setSettings(settings);
    GenerationSpec spec;
    spec.keywords = "春";
    spec.length = 7;
    m_tokens = 0;
    m_latencies.clear();
    const int count = sequencesFor(m_batch);
    // Policies first: if one cannot be made, nothing is queued.
    std::vector<std::unique_ptr<TokenPolicy>> policies;
    for (int i = 0; i < count; ++i)
        policies.push_back(m_generator.makePolicy(spec, i));
    m_start = Clock::now();
    for (auto& policy : policies) {
        SequenceRequest request;
        request.priority = Priority::Bulk;
        request.jobId = kJobId;
        request.policy = std::move(policy);
        request.onFinish = [this](const SequenceResult& r) {
            --m_outstanding;
            m_tokens += int(r.tokens.size());
            if (r.status == RequestStatus::Done)
                m_latencies.push_back(r.metrics.totalMs);
        };
        ++m_outstanding;
        m_scheduler.submit(std::move(request));
    }
    return true;
}

std::optional<AutoTuneResult> AutoTuner::poll()
{
    const double seconds = std::chrono::duration<double>(Clock::now() - m_start).count();
    if (m_outstanding > 0 && seconds > kMaxSecondsPerBatch)
        m_scheduler.cancelJob(kJobId);
    if (m_outstanding > 0)
        return std::nullopt;
    AutoTuneResult result;
    result.batch = m_batch;
    result.tokensPerSecond = m_tokens / std::max(1e-6, seconds);
    result.coupletsPerSecond = double(m_latencies.size()) / std::max(1e-6, seconds);
    result.p95LatencyMs = percentile(m_latencies, 95);
    for (double l : m_latencies)
        result.meanLatencyMs += l / double(m_latencies.size());
    return result;
}

} // namespace couplet
