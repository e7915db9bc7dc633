#include "bulk_runner.h"

#include "bulk_job_options.h"

#include <QFileInfo>

namespace couplet {
namespace {

std::string modelName(const BulkRequest& r)
{
    return QFileInfo(r.modelDir).fileName().toStdString();
}

} // namespace

BulkRunner::BulkRunner(quint64 jobId, const BulkRequest& request, Scheduler& scheduler,
                       const CoupletGenerator& generator, std::function<void(const SequenceResult&)> observer)
    : m_jobId(jobId), m_request(request), m_journal(request.journal.toStdString()),
      m_generator(scheduler, generator, modelName(request),
                  SchedulerRowGenerator::Options{jobId, false, std::move(observer)})
{
    m_job = std::make_unique<BulkJob>(bulkJobOptions(request), m_journal, m_generator);
    m_job->start();
    if (m_request.posterSink)
        m_request.posterSink->attach(*m_job);
}

// The job goes first: it drops its rows from the generator while the
// generator still exists.
BulkRunner::~BulkRunner() { m_job.reset(); }

bool BulkRunner::step() { return m_job->step(); }

bool BulkRunner::wantsStep() const
{
    const BulkProgress p = m_job->progress();
    return p.state == BulkState::Running || (p.state == BulkState::Paused && p.inFlight > 0);
}

bool BulkRunner::isOver() const
{
    const BulkState state = m_job->progress().state;
    return state == BulkState::Finished || state == BulkState::Cancelled || state == BulkState::Failed;
}

BulkStatus BulkRunner::status() const
{
    BulkStatus s;
    s.jobId = m_jobId;
    s.input = m_request.input;
    s.output = m_request.output;
    s.progress = m_job->progress();
    s.resumed = m_job->resumed();
    if (m_request.posterSink) {
        s.hasPosters = true;
        s.posters = m_request.posterSink->progress();
    }
    return s;
}

} // namespace couplet
