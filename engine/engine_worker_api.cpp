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

// The request becomes ServingGroups, as in `couplet serve`; the editor's
// views hear of its choices like of a typed request's.
void EngineWorker::submitApi(const ApiJob& job)
{
    Impl& d = *m_impl;
    const quint64 id = job.requestId();
    Q_EMIT apiRequestStarted({id, job.specs().front(), int(job.specs().size()), job.choices()});
    QString problem = refusal();
    ServingGroups groups;
    try {
        for (std::size_t i = 0; problem.isEmpty() && i < job.specs().size(); ++i)
            problem = QString::fromStdString(d.generator->validate(job.specs()[i]));
        if (problem.isEmpty())
            groups = ServingGroups::make(*d.generator, job.specs(), job.job(), apiOptions(job));
    } catch (const std::exception& e) {
        problem = QString::fromStdString(e.what());
    }
    if (!problem.isEmpty()) {
        job.fail(problem.toStdString());
        failRequest(id, job.choices(), problem);
        return;
    }
    RequestInfo& info = d.requests[id];
    info.groupsLeft = int(job.specs().size());
    info.raw.resize(std::size_t(job.choices()));
    for (SequenceRequest& r : groups.requests)
        d.scheduler->submit(std::move(r));
    scheduleStep();
}

ServingGroupsOptions EngineWorker::apiOptions(const ApiJob& job)
{
    const quint64 id = job.requestId();
    ServingGroupsOptions o;
    // Bulk priority: the scheduler preempts these for work typed in the editor.
    o.priority = Priority::Bulk;
    o.jobId = id;
    o.n = job.n();
    o.maxTokens = job.maxTokens();
    o.metrics = job.metrics().get();
    // `job` holds the metrics and the queue's counter for as long as a sequence runs.
    o.onSequence = [this, job, id](const SequenceResult& result) {
        job.sequenceEnded();
        recordSequence(id, result);
    };
    o.onDelta = [this, id](int choice, std::string_view text, int tokens) { appendDelta(id, choice, text, tokens); };
    o.onGroupDone = [this, id, n = job.n(), specs = job.specs()](int prompt, const GroupResult& result) {
        sendChoices(id, prompt * n, n, result, specs[std::size_t(prompt)].rerank);
        groupDone(id);
    };
    return o;
}

} // namespace couplet
