#pragma once

#include "generation_spec.h"
#include "serving_job.h"
#include "serving_metrics.h"

#include <QtGlobal>

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace couplet {

// One HTTP request of the app's local API server on its way to the engine
// thread (which turns it into ServingGroups, as `couplet serve` does): its
// prompts x n choices, the ServingJob its HTTP thread waits on, and the
// counters it reports to. Copied into the engine's callbacks (all
// members are shared), so it outlives the server that made it.
class ApiJob {
public:
    ApiJob(quint64 requestId, std::shared_ptr<ServingJob> job, std::vector<GenerationSpec> specs, int n, int maxTokens,
           std::shared_ptr<std::atomic<int>> outstanding, std::shared_ptr<ServingMetrics> metrics);

    quint64 requestId() const { return m_requestId; }
    const std::vector<GenerationSpec>& specs() const { return m_specs; }
    int n() const { return m_n; }
    int choices() const { return int(m_specs.size()) * m_n; }
    // Sequences it samples, as counted against the server's queue.
    int sequences() const { return m_sequences; }
    int maxTokens() const { return m_maxTokens; }
    const std::shared_ptr<ServingJob>& job() const { return m_job; }
    const std::shared_ptr<ServingMetrics>& metrics() const { return m_metrics; }

    // Engine thread: one sampled sequence ended.
    void sequenceEnded() const { --*m_outstanding; }
    // Every choice fails with `error` (no model, auto-tune, a bad spec).
    void fail(const std::string& error) const;

private:
    quint64 m_requestId;
    std::shared_ptr<ServingJob> m_job;
    std::vector<GenerationSpec> m_specs;
    int m_n;
    int m_maxTokens;
    int m_sequences;
    std::shared_ptr<std::atomic<int>> m_outstanding;
    std::shared_ptr<ServingMetrics> m_metrics;
};

} // namespace couplet
