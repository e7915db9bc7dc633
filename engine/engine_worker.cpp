#include "engine_worker.h"

#include "auto_tuner.h"
#include "bulk_runner.h"
#include "tracked_policy.h"

#include "scheduler.h"
#include "system_monitor.h"
#include "throughput_meter.h"

#include <QElapsedTimer>
#include <QTimer>

#include <map>
#include <unordered_map>

namespace couplet {
struct SequenceInfo {
    quint64 requestId = 0;
    int candidate = 0;
    std::shared_ptr<CoupletSnapshot> snapshot;
};

namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

struct RequestInfo {
    int remaining = 0;
    int done = 0;
    int cancelled = 0;
    QString error;
    double latencyMs = 0;
    double firstTokenMs = -1;
    double generatingMs = 0;   // longest first-token -> finish of its candidates
    int tokens = 0;
};

} // namespace

struct EngineWorker::Impl {
    BackendLoader loader;
    std::shared_ptr<EngineBackend> backend;
    std::unique_ptr<Decoder> decoder;
    std::unique_ptr<Scheduler> scheduler;
    std::unique_ptr<BulkRunner> bulk;
    QString modelDir;
    ThroughputMeter meter{std::chrono::seconds(10)};
    SystemMonitor monitor;
    EngineSettings settings;
    std::unordered_map<quint64, RequestInfo> requests;
    QList<TextChunk> pending;
    std::map<std::pair<quint64, int>, qsizetype> pendingIndex;
    QElapsedTimer sinceFlush;
    QElapsedTimer sinceStats;
    QElapsedTimer sinceBulkStatus;
    QTimer* statsTimer = nullptr;
    QList<int> tuneQueue;
    std::string lastWarning;
    bool stepPosted = false;
    bool shuttingDown = false;

    void shutDownScheduler()
    {
        bulk.reset();
        if (scheduler)
            scheduler->cancelAll();
        scheduler.reset();
        decoder.reset();
        requests.clear();
    }
};

EngineWorker::EngineWorker(BackendLoader loader) : m_impl(std::make_unique<Impl>())
{
    m_impl->loader = std::move(loader);
    m_impl->statsTimer = new QTimer(this);
    m_impl->statsTimer->setInterval(kStatsIntervalMs);
    connect(m_impl->statsTimer, &QTimer::timeout, this, &EngineWorker::emitStats);
    m_impl->sinceFlush.start();
    m_impl->sinceStats.start();
    m_impl->sinceBulkStatus.start();
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
    d.shuttingDown = true;
    d.shutDownScheduler();
    d.shuttingDown = false;
    d.backend.reset();
    d.modelDir = dir;
    try {
        d.backend = d.loader(dir.toStdString(), options);
        d.decoder = d.backend->makeDecoder();
        d.scheduler = std::make_unique<Scheduler>(
            *d.decoder, SchedulerSettings{d.settings.maxBatch, d.settings.maxWaitMs, d.settings.maxStepTokens});
    } catch (const std::exception& e) {
        d.shutDownScheduler();
        d.backend.reset();
        Q_EMIT modelLoadFailed(qs(e.what()));
        return;
    }
    if (options.threads > 0)
        d.settings.threads = options.threads;
    d.backend->setThreads(d.settings.threads);
    d.meter.clear();
    d.statsTimer->start();
    Q_EMIT modelLoaded(qs(d.backend->deviceName()), qs(d.backend->summary()));
}

void EngineWorker::submit(quint64 requestId, const GenerationSpec& spec, bool bulk)
{
    Impl& d = *m_impl;
    const int candidates = std::max(1, spec.candidates);
    QString problem;
    if (!d.scheduler)
        problem = tr("No model is loaded.");
    else
        problem = qs(d.backend->validate(spec));
    if (!problem.isEmpty()) {
        for (int i = 0; i < candidates; ++i)
            Q_EMIT candidateFinished({requestId, i, Outcome::Failed, problem, {}, {}, {}, 0, 0, 0});
        RequestSummary summary;
        summary.requestId = requestId;
        summary.outcome = Outcome::Failed;
        summary.error = problem;
        Q_EMIT requestFinished(summary);
        return;
    }
    d.requests[requestId].remaining = candidates;
    for (int i = 0; i < candidates; ++i) {
        auto snapshot = std::make_shared<CoupletSnapshot>();
        SequenceRequest request;
        request.priority = bulk ? Priority::Bulk : Priority::Interactive;
        request.jobId = requestId;
        const EngineBackend* backend = d.backend.get();
        request.policy = std::make_unique<TrackedPolicy>(
            d.backend->makePolicy(spec, i),
            [backend](const TokenPolicy& p) { return backend->coupletOf(p); }, snapshot);
        const SequenceInfo info{requestId, i, snapshot};
        request.onDelta = [this, info](RequestId, std::string_view text) { appendDelta(info, text); };
        request.onFinish = [this, info](const SequenceResult& result) { finishSequence(info, result); };
        d.scheduler->submit(std::move(request));
    }
    scheduleStep();
}

void EngineWorker::appendDelta(const SequenceInfo& info, std::string_view text)
{
    Impl& d = *m_impl;
    if (d.shuttingDown)
        return;
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
    // The candidate's last text goes out before its result.
    flushChunks();
    Q_EMIT candidateFinished(c);

    RequestInfo& r = d.requests[info.requestId];
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
    if (--r.remaining <= 0)
        finishRequest(info.requestId);
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
    if (m_impl->bulk) {
        m_impl->bulk->cancel();
        emitBulkStatus();
    }
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
    d.scheduler->setSettings({settings.maxBatch, settings.maxWaitMs, settings.maxStepTokens});
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
    stepBulk();
    try {
        if (d.scheduler->hasWork()) {
            const StepStats stats = d.scheduler->step();
            d.meter.recordStep(Clock::now(), stats, d.scheduler->effectiveMaxBatch());
        }
    } catch (const std::exception& e) {
        // A step that throws is a bug in a decoder or policy: stop the work in
        // flight rather than spin on the same failure.
        Q_EMIT warning(tr("The engine stopped the running requests: %1").arg(qs(e.what())));
        d.scheduler->cancelAll();
    }
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
    const ThroughputSnapshot t = d.meter.snapshot(Clock::now());
    const SystemMonitor::Sample m = d.monitor.sample();
    EngineStats s;
    s.tokensPerSecond = t.tokensPerSecond;
    s.coupletsPerSecond = t.coupletsPerSecond;
    s.p50LatencyMs = t.latencyP50Ms;
    s.p95LatencyMs = t.latencyP95Ms;
    s.batchOccupancy = t.batchOccupancy;
    s.queueDepth = d.scheduler->waitingCount();
    s.running = d.scheduler->runningCount();
    s.maxBatch = d.scheduler->effectiveMaxBatch();
    s.hasGpu = m.gpu;
    s.deviceUtilPercent = m.gpu ? m.gpuUtilizationPercent : m.cpuProcessPercent;
    s.deviceMemoryMiB = m.gpu ? m.gpuMemoryUsedMiB : m.residentMiB;
    s.source = qs(m.source);
    Q_EMIT statsUpdated(s);
}

void EngineWorker::runAutoTune(const QList<int>& batchSizes)
{
    Impl& d = *m_impl;
    if (!d.scheduler) {
        Q_EMIT autoTuneFinished(tr("No model is loaded."));
        return;
    }
    if (d.scheduler->hasWork()) {
        Q_EMIT autoTuneFinished(tr("The queue is busy: run auto-tune when it is empty."));
        return;
    }
    d.tuneQueue = batchSizes;
    QMetaObject::invokeMethod(this, &EngineWorker::autoTuneNext, Qt::QueuedConnection);
}

// One batch size per event-loop turn, so cancels and new settings still get in.
void EngineWorker::autoTuneNext()
{
    Impl& d = *m_impl;
    if (!d.scheduler || d.tuneQueue.isEmpty()) {
        if (d.scheduler)
            d.scheduler->setSettings({d.settings.maxBatch, d.settings.maxWaitMs, d.settings.maxStepTokens});
        Q_EMIT autoTuneFinished(d.scheduler ? QString() : tr("No model is loaded."));
        return;
    }
    const int batch = d.tuneQueue.takeFirst();
    try {
        AutoTuner tuner(*d.scheduler, *d.backend, d.settings.maxStepTokens);
        Q_EMIT autoTunePoint(tuner.measure(batch));
    } catch (const std::exception& e) {
        d.tuneQueue.clear();
        d.scheduler->setSettings({d.settings.maxBatch, d.settings.maxWaitMs, d.settings.maxStepTokens});
        Q_EMIT autoTuneFinished(qs(e.what()));
        return;
    }
    QMetaObject::invokeMethod(this, &EngineWorker::autoTuneNext, Qt::QueuedConnection);
}

bool EngineWorker::hasWork() const
{
    const Impl& d = *m_impl;
    return d.scheduler && (d.scheduler->hasWork() || (d.bulk && d.bulk->wantsStep()));
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
    } else if (d.bulk && d.bulk->wantsStep()) {
        failed.error = tr("Another bulk job is running; cancel it first.");
    } else {
        try {
            d.bulk.reset();
            BulkRequest r = request;
            r.modelDir = d.modelDir;
            d.bulk = std::make_unique<BulkRunner>(jobId, r, *d.scheduler, *d.backend,
                                                  [this](const SequenceResult& s) { m_impl->meter.recordRequest(Clock::now(), s); });
        } catch (const std::exception& e) {
            d.bulk.reset();
            failed.error = qs(e.what());
        }
    }
    if (!failed.error.isEmpty()) {
        Q_EMIT bulkStatus(failed);
        return;
    }
    emitBulkStatus();
    scheduleStep();
}

void EngineWorker::pauseBulk(quint64 jobId)
{
    if (m_impl->bulk && m_impl->bulk->jobId() == jobId) {
        m_impl->bulk->pause();
        emitBulkStatus();
    }
}

void EngineWorker::resumeBulk(quint64 jobId)
{
    if (m_impl->bulk && m_impl->bulk->jobId() == jobId) {
        m_impl->bulk->resume();
        emitBulkStatus();
        scheduleStep();
    }
}

void EngineWorker::cancelBulk(quint64 jobId)
{
    if (m_impl->bulk && m_impl->bulk->jobId() == jobId) {
        m_impl->bulk->cancel();
        emitBulkStatus();
    }
}

// Before each scheduler step: the job tops up its rows in flight and writes
// the finished ones. Its status goes out a few times a second and at the end.
void EngineWorker::stepBulk()
{
    Impl& d = *m_impl;
    if (!d.bulk || !d.bulk->wantsStep())
        return;
    bool more = false;
    try {
        more = d.bulk->step();
    } catch (const std::exception& e) {
        emitBulkStatus(qs(e.what()));
        d.bulk.reset();
        return;
    }
    // The last status of a pause must show the rows in flight drained.
    if (!more || !d.bulk->wantsStep() || d.sinceBulkStatus.elapsed() >= kBulkStatusIntervalMs)
        emitBulkStatus();
}

void EngineWorker::emitBulkStatus(const QString& error)
{
    Impl& d = *m_impl;
    d.sinceBulkStatus.restart();
    if (!d.bulk)
        return;
    BulkStatus s = d.bulk->status();
    s.error = error;
    if (!error.isEmpty())
        s.progress.state = BulkState::Failed;
    Q_EMIT bulkStatus(s);
}

} // namespace couplet
