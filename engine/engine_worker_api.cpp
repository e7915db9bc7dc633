// EngineWorker's side of the local API server: requests from HTTP threads
// join the one scheduler next to the editor's and the bulk job's work.

#include "engine_worker_impl.h"

namespace couplet {

LoadedModel EngineWorker::loadedModel() const
{
    std::lock_guard lock(m_impl->loadedMutex);
    return m_impl->loaded;
}

QString EngineWorker::refusal() const
{
    if (!m_impl->scheduler)
        return tr("No model is loaded.");
    if (m_impl->tuner)
        return tr("Auto-tune is measuring the engine; generate again when it has finished.");
    return {};
}

void EngineWorker::submitApi(const ApiJob& job)
{
    Impl& d = *m_impl;
    const int count = job.sequences();
    Q_EMIT apiRequestStarted({job.requestId(), job.specs().front(), int(job.specs().size()), count});
    QString problem = refusal();
    std::vector<SequenceRequest> requests;
    try {
        for (std::size_t i = 0; problem.isEmpty() && i < job.specs().size(); ++i)
            problem = QString::fromStdString(d.backend->validate(job.specs()[i]));
        for (int i = 0; problem.isEmpty() && i < int(job.specs().size()); ++i)
            for (int c = 0; c < job.n(); ++c)
                requests.push_back(apiRequest(job, i, c));
    } catch (const std::exception& e) {
        problem = QString::fromStdString(e.what());
    }
    if (!problem.isEmpty()) {
        job.fail(problem.toStdString());
        failRequest(job.requestId(), count, problem);
        return;
    }
    d.requests[job.requestId()].remaining = count;
    for (SequenceRequest& r : requests)
        d.scheduler->submit(std::move(r));
    scheduleStep();
}

SequenceRequest EngineWorker::apiRequest(const ApiJob& job, int spec, int candidate)
{
    const EngineBackend* backend = m_impl->backend.get();
    auto snapshot = std::make_shared<CoupletSnapshot>();
    SequenceRequest r;
    // Bulk priority: the scheduler preempts these for work typed in the editor.
    r.priority = Priority::Bulk;
    r.jobId = job.requestId();
    // The limit goes outside, where ApiJob::finish() looks for it.
    r.policy = job.limit(std::make_unique<TrackedPolicy>(
        backend->makePolicy(job.specs()[std::size_t(spec)], candidate),
        [backend](const TokenPolicy& p) { return backend->coupletOf(p); }, snapshot));
    const SequenceInfo info{job.requestId(), spec * job.n() + candidate, snapshot};
    r.onDelta = [this, info, job](RequestId, std::string_view text) {
        job.deliver(info.candidate, text);
        appendDelta(info, text);
    };
    r.onFinish = [this, info, job](const SequenceResult& result) {
        job.finish(info.candidate, result);
        finishSequence(info, result);
    };
    return r;
}

} // namespace couplet
