#include "auto_tuner.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace couplet {
namespace {

// Enough sequences to fill every slot twice, so admission and decoding overlap
// as they do under real load.
int sequencesFor(int batch) { return std::clamp(2 * batch, 8, 256); }

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto index = std::size_t(std::min<double>(values.size() - 1, p * double(values.size())));
    return values[index];
}

} // namespace

AutoTuner::AutoTuner(Scheduler& scheduler, const EngineBackend& backend, int maxStepTokens)
    : m_scheduler(scheduler), m_backend(backend), m_maxStepTokens(maxStepTokens)
{
}

AutoTuneResult AutoTuner::measure(int batch)
{
    m_scheduler.setSettings({batch, 0, m_maxStepTokens});
    GenerationSpec spec;
    spec.keywords = "春";
    spec.length = 7;
    std::vector<double> latencies;
    int tokens = 0;
    int done = 0;
    const int count = sequencesFor(batch);
    for (int i = 0; i < count; ++i) {
        SequenceRequest request;
        request.priority = Priority::Bulk;
        request.jobId = kJobId;
        request.policy = m_backend.makePolicy(spec, i);
        request.onFinish = [&](const SequenceResult& r) {
            tokens += int(r.tokens.size());
            if (r.status == RequestStatus::Done) {
                ++done;
                latencies.push_back(r.metrics.totalMs);
            }
        };
        m_scheduler.submit(std::move(request));
    }
    const auto start = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    while (m_scheduler.hasWork()) {
        m_scheduler.step();
        if (elapsed() > kMaxSecondsPerBatch)
            m_scheduler.cancelJob(kJobId);
    }
    const double seconds = std::max(1e-6, elapsed());
    AutoTuneResult result;
    result.batch = batch;
    result.tokensPerSecond = tokens / seconds;
    result.coupletsPerSecond = done / seconds;
    result.p95LatencyMs = percentile(latencies, 0.95);
    for (double l : latencies)
        result.meanLatencyMs += l / double(latencies.size());
    return result;
}

} // namespace couplet
