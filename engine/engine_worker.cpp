#include "engine_worker.h"

#include "engine_worker_impl.h"

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
    d.backend.reset();
    d.modelDir = dir;
    try {
        d.backend = d.loader(dir.toStdString(), options);
        d.decoder = d.backend->makeDecoder();
        d.scheduler = std::make_unique<Scheduler>(*d.decoder, d.settings);
    } catch (const std::exception& e) {
        d.shutDownScheduler();
        d.backend.reset();
        Q_EMIT modelLoadFailed(qs(e.what()));
        return;
    }
    if (options.threads > 0)
        d.settings.threads = options.threads;
    d.backend->setThreads(d.settings.threads);
    d.setLoaded({d.backend, dir.toStdString()});
    d.meter.clear();
    d.statsTimer->start();
    Q_EMIT modelLoaded(qs(d.backend->deviceName()), qs(d.backend->summary()));
}

void EngineWorker::submit(quint64 requestId, const GenerationSpec& spec, bool bulk)
{
    Impl& d = *m_impl;
    const int candidates = std::max(1, spec.candidates);
    QString problem = refusal();
    if (problem.isEmpty())
        problem = qs(d.backend->validate(spec));
    // Every policy before any submission: if one cannot be made, nothing of
    // the request is queued and it fails with the reason.
    // An interactive request is reranked like the CLI's: sampled x4, best kept.
    const int sampled = !problem.isEmpty() || bulk ? candidates : std::max(candidates, d.backend->sampledCandidates(spec));
    std::vector<std::unique_ptr<TokenPolicy>> policies;
    try {
        for (int i = 0; problem.isEmpty() && i < sampled; ++i)
            policies.push_back(d.backend->makePolicy(spec, i));
    } catch (const std::exception& e) {
        problem = qs(e.what());
    }
    if (!problem.isEmpty()) {
        failRequest(requestId, candidates, problem);
        return;
    }
    RequestInfo& info = d.requests[requestId];
    info.remaining = sampled;
    info.visible = candidates;
    info.reranked = sampled > candidates;
    info.spec = spec;
    const EngineBackend* backend = d.backend.get();
    for (int i = 0; i < sampled; ++i) {
        auto snapshot = std::make_shared<CoupletSnapshot>();
        SequenceRequest request;
        request.priority = bulk ? Priority::Bulk : Priority::Interactive;
        request.jobId = requestId;
        request.policy = std::make_unique<TrackedPolicy>(
            std::move(policies[std::size_t(i)]),
            [backend](const TokenPolicy& p) { return backend->coupletOf(p); }, snapshot);
        const SequenceInfo info{requestId, i, snapshot};
        request.onDelta = [this, info](RequestId, std::string_view text) { appendDelta(info, text); };
        request.onFinish = [this, info](const SequenceResult& result) { finishSequence(info, result); };
        d.scheduler->submit(std::move(request));
    }
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

void EngineWorker::appendDelta(const SequenceInfo& info, std::string_view text)
{
    Impl& d = *m_impl;
    if (d.shuttingDown)
        return;
    if (const auto r = d.requests.find(info.requestId); r != d.requests.end() && info.candidate >= r->second.visible)
        return;   // a candidate sampled for reranking only: not shown while it is written
    const auto key = std::make_pair(info.requestId, info.candidate);
    auto index = d.pendingIndex.find(key);
    if (index == d.pendingIndex.end()) {
        index = d.pendingIndex.emplace(key, d.pending.size()).first;
        d.pending.append({info.requestId, info.candidate, {}, {}, {}, {}, 0});
    }
    // Later text of the same candidate joins its chunk: one chunk per
    // candidate per flush, however many tokens it produced.
    TextChunk& chunk = d.pending[index->second];
    chunk.delta += QString::fromUtf8(text.data(), qsizetype(text.size()));
    const Couplet& c = info.snapshot->couplet;
    chunk.upper = qs(c.upper);
    chunk.lower = qs(c.lower);
    chunk.hengpi = qs(c.hengpi);
    chunk.tokens = info.snapshot->tokens;
}

void EngineWorker::finishSequence(const SequenceInfo& info, const SequenceResult& result)
{
    Impl& d = *m_impl;
    if (d.shuttingDown)
        return;
    d.meter.recordRequest(Clock::now(), result);
    CandidateResult c;
    c.requestId = info.requestId;
    c.candidate = info.candidate;
    c.outcome = result.status == RequestStatus::Done        ? Outcome::Done
                : result.status == RequestStatus::Cancelled ? Outcome::Cancelled
                                                            : Outcome::Failed;
    c.error = qs(result.error);
    const Couplet& couplet = info.snapshot->couplet;
    c.upper = qs(couplet.upper);
    c.lower = qs(couplet.lower);
    c.hengpi = qs(couplet.hengpi);
    c.tokens = int(result.tokens.size());
    c.score = couplet.score != 0 || c.tokens == 0 ? couplet.score : result.logProb / c.tokens;
    c.seed = couplet.seed;
    RequestInfo& r = d.requests[info.requestId];
    if (r.reranked) {
        r.held.push_back(c);
        r.heldCouplets.push_back(couplet);
    } else {
        // The candidate's last text goes out before its result.
        flushChunks();
        Q_EMIT candidateFinished(c);
    }

    r.done += c.outcome == Outcome::Done;
    r.cancelled += c.outcome == Outcome::Cancelled;
    if (c.outcome == Outcome::Failed && r.error.isEmpty())
        r.error = c.error;
    r.latencyMs = std::max(r.latencyMs, result.metrics.totalMs);
    if (result.metrics.generatedTokens > 0) {
        r.firstTokenMs = r.firstTokenMs < 0 ? result.metrics.firstTokenMs
                                            : std::min(r.firstTokenMs, result.metrics.firstTokenMs);
        r.generatingMs = std::max(r.generatingMs, result.metrics.totalMs - result.metrics.queueWaitMs);
    }
    r.tokens += c.tokens;
    if (--r.remaining <= 0) {
        if (r.reranked)
            sendReranked(info.requestId, r);
        finishRequest(info.requestId);
    }
}

// The best r.visible of a reranked request's candidates, into slots
// 0..visible-1; slots without a finished couplet keep their own outcome.
void EngineWorker::sendReranked(quint64 requestId, RequestInfo& r)
{
    Impl& d = *m_impl;
    std::vector<Couplet> done;
    for (std::size_t i = 0; i < r.held.size(); ++i)
        if (r.held[i].outcome == Outcome::Done) {
            done.push_back(r.heldCouplets[i]);
            done.back().score = r.held[i].score;
        }
    if (d.backend)
        d.backend->rerank(r.spec, done);
    std::sort(r.held.begin(), r.held.end(), [](const CandidateResult& a, const CandidateResult& b) { return a.candidate < b.candidate; });
    flushChunks();
    for (int slot = 0; slot < r.visible; ++slot) {
        CandidateResult out = slot < static_cast<int>(r.held.size()) ? r.held[std::size_t(slot)] : CandidateResult{};
        if (slot < static_cast<int>(done.size())) {
            const Couplet& best = done[std::size_t(slot)];
            const auto source = std::find_if(r.held.begin(), r.held.end(), [&](const CandidateResult& c) {
                return c.outcome == Outcome::Done && c.seed == best.seed;
            });
            out = *source;
            out.score = best.score;
            out.parts = best.parts;
            out.reranked = true;
        }
        out.requestId = requestId;
        out.candidate = slot;
        Q_EMIT candidateFinished(out);
    }
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
        d.backend->setThreads(settings.threads);
}

void EngineWorker::scheduleStep()
{
    Impl& d = *m_impl;
    if (d.stepPosted || !hasWork())
        return;
    d.stepPosted = true;
    const int wait = d.scheduler->hasWork() ? d.scheduler->msUntilReady() : 0;
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
    d.tuner = std::make_unique<AutoTuner>(*d.scheduler, *d.backend, d.settings.maxStepTokens, batchSizes);
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
        failed.error = d.bulk.start(jobId, r, *d.scheduler, *d.backend);
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
    if (d.scheduler && d.bulk.resume(jobId, *d.scheduler, *d.backend, d.modelDir))
        scheduleStep();
}

void EngineWorker::cancelBulk(quint64 jobId) { m_impl->bulk.cancel(jobId); }

} // namespace couplet
