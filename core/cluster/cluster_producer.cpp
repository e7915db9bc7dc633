#include "cluster_producer.h"

#include <unistd.h>

namespace couplet {

ClusterProducer::ClusterProducer(RedisConnection& redis, std::string modelId, const BulkJobOptions& options,
                                 BulkJournal& journal)
    : m_journal(journal), m_input(options.input.string()), m_output(options.output.string()),
      m_modelId(std::move(modelId)), m_generator(redis, m_modelId), m_job(options, journal, m_generator)
{
}

std::string ClusterProducer::jobKeyFor(const BulkJournal& journal, std::int64_t journalJob)
{
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return std::string(host) + "-" + std::to_string(journalJob) + "-" + std::to_string(journal.job(journalJob).created);
}

void ClusterProducer::attach()
{
    m_generator.attach(jobKeyFor(m_journal, m_job.jobId()), m_journal, m_job.jobId(),
                       {m_input, m_output, m_job.progress().total});
}

bool ClusterProducer::step(std::vector<std::string>& refusals)
{
    const bool more = m_job.step();
    publish(refusals);
    return more;
}

void ClusterProducer::publish(std::vector<std::string>& refusals)
{
    for (std::string& refusal : m_generator.publish(m_job.progress())) refusals.push_back(std::move(refusal));
}

void ClusterProducer::finish() { m_generator.finish(m_job.progress()); }

} // namespace couplet
