#include "engine_worker.h"

#include "engine_worker_impl.h"

#include <QStringList>

#include <algorithm>

namespace couplet {
namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

} // namespace

EngineWorker::EngineWorker(BackendLoader loader)
    : m_impl(std::make_unique<Impl>(
          [this](const BulkStatus& s) { Q_EMIT bulkStatus(s); },
          [this](const SequenceResult& s) { m_impl->meter.recordRequest(Clock::now(), s); }))
{
    m_impl->loader = std::move(loader);
    m_impl->statsTimer = new QTimer(this);
    m_impl->statsTimer->setInterval(kStatsIntervalMs);
    connect(m_impl->statsTimer, &QTimer::timeout, this, &EngineWorker::emitStats);
    m_impl->sinceFlush.start();
    m_impl->sinceStats.start();
}

EngineWorker::~EngineWorker()
{
    // Cancelling calls our onFinish callbacks: they must not emit any more.
    m_impl->shuttingDown = true;
    m_impl->shutDownScheduler();
}

void EngineWorker::loadModel(const QString& dir, const DeviceOptions& options)
{
    Impl& d = *m_impl;
    // Work in flight ends visibly: requests as Cancelled, a bulk job paused.
    endWorkForReload();
    d.shutDownScheduler();
    d.generator.reset();
    d.modelDir = dir;
    try {
        d.generator = d.loader(dir.toStdString(), options);
        d.decoder = d.generator->makeDecoder();
        d.scheduler = std::make_unique<Scheduler>(*d.decoder, d.settings);
    } catch (const std::exception& e) {
        d.shutDownScheduler();
        d.generator.reset();
        Q_EMIT modelLoadFailed(qs(e.what()));
        return;
    }
    if (options.threads > 0)
        d.settings.threads = options.threads;
    d.generator->setThreads(d.settings.threads);
    d.setLoaded({d.generator, dir.toStdString()});
    d.meter.clear();
    d.statsTimer->start();
    Q_EMIT modelLoaded(qs(d.generator->deviceName()), qs(d.generator->summary()));
}

// One CandidateGroup: the editor's couplets are chosen as every door's are.
// The first spec.candidates sampled candidates stream live; when the group
// ends its best spec.candidates replace them, in slots 0..candidates-1.
void EngineWorker::submit(quint64 requestId, const GenerationSpec& spec, bool bulk)
{
    Impl& d = *m_impl;
    const int visible = std::max(1, spec.candidates);
    QString problem = refusal();
    std::shared_ptr<CandidateGroup> group;
    if (problem.isEmpty()) {
        CandidateGroupOptions options;
        options.priority = bulk ? Priority::Bulk : Priority::Interactive;
        options.jobId = requestId;
        options.onDelta = [this, requestId, visible](int index, std::string_view text, int tokens) {
            if (index < visible)
                appendDelta(requestId, index, text, tokens);
        };
        options.onSequence = [this, requestId](int, const SequenceResult& result) { recordSequence(requestId, result); };
        options.onDone = [this, requestId, visible, rerank = spec.rerank](GroupResult result) {
            sendChoices(requestId, 0, visible, result, rerank);
            groupDone(requestId);
        };
        try {
            group = CandidateGroup::create(*d.generator, spec, std::move(options));
        } catch (const std::exception& e) {
            problem = qs(e.what());
        }
    }
    if (!problem.isEmpty()) {
        failRequest(requestId, visible, problem);
        return;
    }
    RequestInfo& info = d.requests[requestId];
    info.groupsLeft = 1;
    info.raw.resize(std::size_t(visible));
    group->submitTo(*d.scheduler);
    scheduleStep();
}

void EngineWorker::failRequest(quint64 requestId, int candidates, const QString& message)
{
    for (int i = 0; i < candidates; ++i)
        Q_EMIT candidateFinished({requestId, i, Outcome::Failed, message, {}, {}, {}, 0, 0, 0, {}, false});
    RequestSummary summary;
    summary.requestId = requestId;
    summary.outcome = Outcome::Failed;
    summary.error = message;
    Q_EMIT requestFinished(summary);
}

// Before the scheduler goes: an auto-tune ends with a message, a bulk job
// pauses with its journal intact, and every request ends as Cancelled (its
// onFinish runs now, while the worker still listens).
void EngineWorker::endWorkForReload()
{
    Impl& d = *m_impl;
    if (d.tuner)
        finishAutoTune(tr("The model was reloaded during auto-tune."));
    d.bulk.park();
    if (d.scheduler)
        d.scheduler->cancelAll();
    flushChunks();
}

void EngineWorker::appendDelta(quint64 requestId, int choice, std::string_view text, int tokens)
{
    Impl& d = *m_impl;
    const auto r = d.requests.find(requestId);
    if (d.shuttingDown || r == d.requests.end())
        return;
    std::string& raw = r->second.raw[std::size_t(choice)];
    raw += text;
    const auto key = std::make_pair(requestId, choice);
    auto index = d.pendingIndex.find(key);
    if (index == d.pendingIndex.end()) {
        index = d.pendingIndex.emplace(key, d.pending.size()).first;
        d.pending.append({requestId, choice, {}, {}, {}, 0});
    }
    // Later text of the same choice replaces its chunk's: one chunk per
    // choice per flush, however many tokens it produced.
    TextChunk& chunk = d.pending[index->second];
    const QStringList lines = QString::fromStdString(raw).split(QLatin1Char('\n'));
    chunk.upper = lines.value(0);
    chunk.lower = lines.value(1);
    chunk.hengpi = lines.value(2);
    chunk.tokens = tokens;
}

void EngineWorker::recordSequence(quint64 requestId, const SequenceResult& result)
{
    Impl& d = *m_impl;
    if (d.shuttingDown)
        return;
    d.meter.recordRequest(Clock::now(), result);
    const auto it = d.requests.find(requestId);
    if (it == d.requests.end())
        return;
    RequestInfo& r = it->second;
    if (result.status == RequestStatus::Failed && r.error.isEmpty())
        r.error = qs(result.error);
    r.latencyMs = std::max(r.latencyMs, result.metrics.totalMs);
    if (result.metrics.generatedTokens > 0) {
        r.firstTokenMs = r.firstTokenMs < 0 ? result.metrics.firstTokenMs
                                            : std::min(r.firstTokenMs, result.metrics.firstTokenMs);
        r.generatingMs = std::max(r.generatingMs, result.metrics.totalMs - result.metrics.queueWaitMs);
    }
    r.tokens += int(result.tokens.size());
}

// A group's chosen couplets into slots first..first+count-1, best first;
// slots it has no couplet for fail with its error (or end cancelled).
void EngineWorker::sendChoices(quint64 requestId, int first, int count, const GroupResult& group, bool reranked)
{
    Impl& d = *m_impl;
    const auto it = d.requests.find(requestId);
    if (d.shuttingDown || it == d.requests.end())
        return;
    flushChunks();   // the streamed text goes out before the results
    for (int k = 0; k < count; ++k) {
        CandidateResult out;
        out.requestId = requestId;
        out.candidate = first + k;
        if (k < int(group.couplets.size())) {
            const Couplet& c = group.couplets[std::size_t(k)];
            const int source = group.sources[std::size_t(k)];
            out.upper = qs(c.upper);
            out.lower = qs(c.lower);
            out.hengpi = qs(c.hengpi);
            out.score = c.score;
            out.seed = c.seed;
            out.tokens = source >= 0 ? group.sequences[std::size_t(source)].metrics.generatedTokens : 0;
            out.parts = c.parts;
            out.reranked = reranked;
            ++it->second.done;
        } else {
            out.outcome = group.error.empty() ? Outcome::Cancelled : Outcome::Failed;
            out.error = qs(group.error);
        }
        Q_EMIT candidateFinished(out);
    }
}

void EngineWorker::groupDone(quint64 requestId)
{
    const auto it = m_impl->requests.find(requestId);
    if (m_impl->shuttingDown || it == m_impl->requests.end())
        return;
    if (--it->second.groupsLeft <= 0)
        finishRequest(requestId);
}

void EngineWorker::finishRequest(quint64 requestId)
{
    Impl& d = *m_impl;
    const auto it = d.requests.find(requestId);
    const RequestInfo r = it->second;
    d.requests.erase(it);
    RequestSummary s;
    s.requestId = requestId;
    s.outcome = r.done > 0 ? Outcome::Done : r.error.isEmpty() ? Outcome::Cancelled : Outcome::Failed;
    s.error = r.error;
    s.latencyMs = r.latencyMs;
    s.firstTokenMs = std::max(0.0, r.firstTokenMs);
    s.tokens = r.tokens;
    s.tokensPerSecond = r.generatingMs > 0 ? r.tokens / (r.generatingMs / 1000.0) : 0;
    Q_EMIT requestFinished(s);
}

void EngineWorker::cancel(quint64 requestId)
{
    if (m_impl->scheduler)
        m_impl->scheduler->cancelJob(requestId);
    scheduleStep();
}

void EngineWorker::cancelAll()
{
    if (m_impl->tuner)
        finishAutoTune(tr("Auto-tune was cancelled."));
    m_impl->bulk.cancelAll();
    if (m_impl->scheduler)
        m_impl->scheduler->cancelAll();
    scheduleStep();
}

void EngineWorker::setSettings(const EngineSettings& settings)
{
    Impl& d = *m_impl;
    const bool threadsChanged = settings.threads != d.settings.threads;
    d.settings = settings;
    if (!d.scheduler)
        return;
    // Auto-tune restores the new settings when it ends.
    if (!d.tuner)
        d.scheduler->setSettings(settings);
    if (threadsChanged)
        d.generator->setThreads(settings.threads);
}

void EngineWorker::scheduleStep()
{
    Impl& d = *m_impl;
    if (d.stepPosted || !hasWork())
        return;
    d.stepPosted = true;
    const int wait = d.scheduler->hasWork() ? d.scheduler->msUntilReady() : d.bulk.msUntilReady();
    if (wait > 0)
        QTimer::singleShot(wait, this, &EngineWorker::runStep);
    else
        QMetaObject::invokeMethod(this, &EngineWorker::runStep, Qt::QueuedConnection);
}

void EngineWorker::runStep()
{
    Impl& d = *m_impl;
    d.stepPosted = false;
    if (!d.scheduler)
        return;
    d.bulk.step();
    try {
        if (d.scheduler->hasWork()) {
            const StepStats stats = d.scheduler->step();
            d.meter.recordStep(Clock::now(), stats, d.scheduler->effectiveMaxBatch());
        }
    } catch (const std::exception& e) {
        // A step that throws is a bug in a decoder or policy: stop the work in
        // flight rather than spin on the same failure.
        Q_EMIT warning(tr("The engine stopped the running requests: %1").arg(qs(e.what())));
        if (d.tuner)
            finishAutoTune(qs(e.what()));
        d.scheduler->cancelAll();
    }
    stepAutoTune();
    if (d.scheduler->lastWarning() != d.lastWarning) {
        d.lastWarning = d.scheduler->lastWarning();
        if (!d.lastWarning.empty())
            Q_EMIT warning(qs(d.lastWarning));
    }
    const bool more = hasWork();
    if (!more || d.sinceFlush.elapsed() >= kFlushIntervalMs)
        flushChunks();
    if (d.sinceStats.elapsed() >= kStatsIntervalMs)
        emitStats();
    scheduleStep();
}

void EngineWorker::flushChunks()
{
    Impl& d = *m_impl;
    d.sinceFlush.restart();
    if (d.pending.isEmpty())
        return;
    QList<TextChunk> chunks;
    chunks.swap(d.pending);
    d.pendingIndex.clear();
    Q_EMIT textChunks(chunks);
}

void EngineWorker::emitStats()
{
    Impl& d = *m_impl;
    d.sinceStats.restart();
    if (!d.scheduler)
        return;
    EngineStats s;
    s.throughput = d.meter.snapshot(Clock::now());
    s.throughput.queueDepth = d.scheduler->waitingCount();
    s.machine = d.monitor.sample();
    s.running = d.scheduler->runningCount();
    s.maxBatch = d.scheduler->effectiveMaxBatch();
    Q_EMIT statsUpdated(s);
}

void EngineWorker::runAutoTune(const QList<int>& batchSizes)
{
    Impl& d = *m_impl;
    if (!d.scheduler) {
        Q_EMIT autoTuneFinished(tr("No model is loaded."));
        return;
    }
    if (d.tuner || d.scheduler->hasWork() || d.bulk.wantsStep()) {
        Q_EMIT autoTuneFinished(tr("The queue is busy: run auto-tune when it is empty."));
        return;
    }
    d.tuner = std::make_unique<AutoTuner>(*d.scheduler, *d.generator, d.settings.maxStepTokens, batchSizes);
    startNextAutoTune();
}

void EngineWorker::startNextAutoTune()
{
    Impl& d = *m_impl;
    try {
        if (!d.tuner->startNext()) {
            finishAutoTune({});
            return;
        }
    } catch (const std::exception& e) {
        finishAutoTune(qs(e.what()));
        return;
    }
    scheduleStep();
}

// After each scheduler step: a batch size whose sequences all ended is reported.
void EngineWorker::stepAutoTune()
{
    Impl& d = *m_impl;
    if (!d.tuner)
        return;
    if (const auto result = d.tuner->poll()) {
        Q_EMIT autoTunePoint(*result);
        startNextAutoTune();
    }
}

void EngineWorker::finishAutoTune(const QString& error)
{
    Impl& d = *m_impl;
    d.tuner.reset();
    if (d.scheduler)
        d.scheduler->setSettings(d.settings);
    Q_EMIT autoTuneFinished(error);
}

bool EngineWorker::hasWork() const
{
    const Impl& d = *m_impl;
    return d.scheduler && (d.scheduler->hasWork() || d.bulk.wantsStep());
}

void EngineWorker::startBulk(quint64 jobId, const BulkRequest& request)
{
    Impl& d = *m_impl;
    BulkStatus failed;
    failed.jobId = jobId;
    failed.input = request.input;
    failed.output = request.output;
    failed.progress.state = BulkState::Failed;
    if (!d.scheduler) {
        failed.error = tr("No model is loaded.");
    } else if (d.tuner) {
        failed.error = tr("Auto-tune is measuring the engine; start the job when it has finished.");
    } else if (d.bulk.wantsStep()) {
        failed.error = tr("Another bulk job is running; cancel it first.");
    } else {
        BulkRequest r = request;
        r.modelDir = d.modelDir;
        failed.error = d.bulk.start(jobId, r, *d.scheduler, *d.generator);
    }
    if (!failed.error.isEmpty()) {
        Q_EMIT bulkStatus(failed);
        return;
    }
    scheduleStep();
}

void EngineWorker::pauseBulk(quint64 jobId) { m_impl->bulk.pause(jobId); }

void EngineWorker::resumeBulk(quint64 jobId)
{
    Impl& d = *m_impl;
    if (d.bulk.isParked(jobId) && (!d.scheduler || d.tuner)) {
        Q_EMIT warning(d.scheduler ? tr("Auto-tune is measuring the engine; resume the job when it has finished.")
                                   : tr("No model is loaded."));
        return;
    }
    if (d.scheduler && d.bulk.resume(jobId, *d.scheduler, *d.generator, d.modelDir))
        scheduleStep();
}

void EngineWorker::cancelBulk(quint64 jobId) { m_impl->bulk.cancel(jobId); }

} // namespace couplet
