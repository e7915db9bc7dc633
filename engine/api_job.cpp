#include "api_job.h"

#include "serving_groups.h"

namespace couplet {

ApiJob::ApiJob(quint64 requestId, std::shared_ptr<ServingJob> job, std::vector<GenerationSpec> specs, int n,
               int maxTokens, std::shared_ptr<std::atomic<int>> outstanding, std::shared_ptr<ServingMetrics> metrics)
    : m_requestId(requestId), m_job(std::move(job)), m_specs(std::move(specs)), m_n(n), m_maxTokens(maxTokens),
      m_sequences(ServingGroups::sequencesFor(m_specs, n)), m_outstanding(std::move(outstanding)), m_metrics(std::move(metrics))
{
}

void ApiJob::fail(const std::string& error) const
{
    CandidateSequence failed;
    failed.status = RequestStatus::Failed;
    failed.error = error;
    for (int i = 0; i < choices(); ++i) m_job->finish(i, failed);
    *m_outstanding -= m_sequences;
}

} // namespace couplet
