#include "api_job.h"

#include "limited_policy.h"

namespace couplet {

ApiJob::ApiJob(quint64 requestId, std::shared_ptr<ServingJob> job, std::vector<GenerationSpec> specs, int n,
               int maxTokens, std::shared_ptr<std::atomic<int>> outstanding, std::shared_ptr<ServingMetrics> metrics)
    : m_requestId(requestId), m_job(std::move(job)), m_specs(std::move(specs)), m_n(n), m_maxTokens(maxTokens),
      m_outstanding(std::move(outstanding)), m_metrics(std::move(metrics))
{
}

std::unique_ptr<TokenPolicy> ApiJob::limit(std::unique_ptr<TokenPolicy> policy) const
{
    if (m_maxTokens <= 0)
        return policy;
    return std::make_unique<LimitedPolicy>(std::move(policy), m_maxTokens);
}

void ApiJob::finish(int index, const SequenceResult& result) const
{
    // Counted before the job hears of it: its response may be written (and
    // /metrics read) as soon as it has.
    m_metrics->addTokens(result.metrics.promptTokens, result.metrics.generatedTokens);
    if (result.metrics.generatedTokens > 0)
        m_metrics->observeFirstToken(result.metrics.firstTokenMs / 1000.0);
    const auto* limited = dynamic_cast<const LimitedPolicy*>(result.policy.get());
    m_job->finish(index, result, limited != nullptr && limited->cutShort());
    --*m_outstanding;
}

void ApiJob::fail(const std::string& error) const
{
    SequenceResult failed;
    failed.status = RequestStatus::Failed;
    failed.error = error;
    for (int i = 0; i < sequences(); ++i) {
        m_job->finish(i, failed, false);
        --*m_outstanding;
    }
}

} // namespace couplet
