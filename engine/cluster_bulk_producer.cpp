#include "cluster_bulk_producer.h"

#include "bulk_job_options.h"
#include "cluster_producer.h"
#include "cluster_status.h"
#include "model_id.h"
#include "redis_connection.h"

#include <QElapsedTimer>

#include <chrono>
#include <optional>

namespace couplet {
namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

// "redis unavailable: redis://H:P: Connection refused; retrying …" -> "Connection refused".
QString outageReason(const std::string& line, const std::string& url)
{
    std::string reason = line;
    for (const std::string& prefix : {std::string("redis unavailable: "), url + ": "})
        if (reason.rfind(prefix, 0) == 0)
            reason.erase(0, prefix.size());
    return qs(reason.substr(0, reason.find("; retrying")));
}

BulkStatus statusOf(quint64 jobId, const BulkRequest& r, const BulkProgress& progress)
{
    BulkStatus s;
    s.jobId = jobId;
    s.input = r.input;
    s.output = r.output;
    s.progress = progress;
    if (r.posterSink) {
        s.hasPosters = true;
        s.posters = r.posterSink->progress();
    }
    return s;
}

} // namespace

struct ClusterBulkProducer::Impl {
    quint64 jobId = 0;
    BulkRequest request;
    std::optional<RedisUrl> url;
    std::string modelId;
    std::unique_ptr<BulkJournal> journal;
    std::unique_ptr<RedisConnection> redis;
    std::unique_ptr<ClusterProducer> producer;
    BulkProgress last;               // the job's last progress (kept while parked)
    bool parked = false;
    bool stepPosted = false;
    QStringList refusals;
    QString outage;                  // the connection's line when an outage began
    std::optional<std::chrono::steady_clock::time_point> outageSince;
    QElapsedTimer sinceStatus;
    QElapsedTimer sinceView;

    // Retries end (RedisStopped) once an outage has lasted kGiveUpMs.
    bool givingUp() const
    {
        return outageSince && std::chrono::steady_clock::now() - *outageSince > std::chrono::milliseconds(kGiveUpMs);
    }
};

ClusterBulkProducer::ClusterBulkProducer() : m_impl(std::make_unique<Impl>())
{
    m_impl->sinceStatus.start();
    m_impl->sinceView.start();
}

// The job goes before its connection and journal.
ClusterBulkProducer::~ClusterBulkProducer() { close(); }

void ClusterBulkProducer::start(quint64 jobId, const BulkRequest& request)
{
    Impl& d = *m_impl;
    if (d.producer && wantsStep()) {
        BulkStatus refused = statusOf(jobId, request, {});
        refused.progress.state = BulkState::Failed;
        refused.error = tr("Another job is running on the workers; cancel it first.");
        Q_EMIT bulkStatus(refused);
        return;
    }
    close();
    d = Impl();
    d.sinceStatus.start();
    d.sinceView.start();
    d.jobId = jobId;
    d.request = request;
    try {
        d.url = RedisUrl::parse(request.redisUrl.toStdString());
        d.modelId = cluster::modelIdOf(request.modelDir.toStdString());
    } catch (const std::exception& e) {
        fail(qs(e.what()));
        return;
    }
    if (open(request.resume))
        scheduleStep();
}

// Opens the journal, the connection and the job; false (reported) when it cannot.
bool ClusterBulkProducer::open(bool resume)
{
    Impl& d = *m_impl;
    d.outageSince.reset();
    try {
        d.journal = std::make_unique<BulkJournal>(d.request.journal.toStdString());
        d.redis = std::make_unique<RedisConnection>(*d.url, RedisTimeouts{}, [&d](const std::string& line) {
            if (line.rfind("redis unavailable", 0) == 0) {
                d.outage = outageReason(line, d.url->toString());
                d.outageSince = std::chrono::steady_clock::now();
            } else {
                d.outageSince.reset();
            }
        });
        d.redis->setStopCondition([&d] { return d.givingUp(); });
        BulkRequest r = d.request;
        r.resume = resume;
        d.producer = std::make_unique<ClusterProducer>(*d.redis, d.modelId, bulkJobOptions(r), *d.journal);
        d.producer->job().start();
        if (d.request.posterSink)
            d.request.posterSink->attach(d.producer->job());
        d.producer->attach();
        emitView();
    } catch (const RedisStopped&) {
        park(d.outage);
        return false;
    } catch (const std::exception& e) {
        fail(qs(e.what()));
        return false;
    }
    d.parked = false;
    emitStatus();
    return true;
}

void ClusterBulkProducer::scheduleStep()
{
    Impl& d = *m_impl;
    if (d.stepPosted || !wantsStep())
        return;
    d.stepPosted = true;
    QMetaObject::invokeMethod(this, &ClusterBulkProducer::step, Qt::QueuedConnection);
}

// Running, or paused with rows still out at the workers.
bool ClusterBulkProducer::wantsStep() const
{
    const Impl& d = *m_impl;
    if (!d.producer)
        return false;
    const BulkProgress p = d.producer->job().progress();
    return p.state == BulkState::Running || (p.state == BulkState::Paused && p.inFlight > 0);
}

void ClusterBulkProducer::step()
{
    Impl& d = *m_impl;
    d.stepPosted = false;
    if (!d.producer)
        return;
    std::vector<std::string> refusals;
    bool more = false;
    try {
        more = d.producer->step(refusals);
        if (d.sinceView.elapsed() >= kViewIntervalMs)
            emitView();
    } catch (const RedisStopped&) {
        park(d.outage);
        return;
    } catch (const std::exception& e) {
        fail(qs(e.what()));
        return;
    }
    for (const std::string& r : refusals)
        d.refusals << qs(r);
    if (!more) {
        finishJob();
        return;
    }
    if (!wantsStep() || d.sinceStatus.elapsed() >= kStatusIntervalMs)
        emitStatus();
    scheduleStep();
}

void ClusterBulkProducer::finishJob()
{
    Impl& d = *m_impl;
    try {
        if (d.producer->job().progress().state == BulkState::Finished)
            d.producer->finish();
        emitView();
    } catch (const RedisStopped&) {
        // Every row is in the journal and the output; only the job's cleanup in Redis is left.
    } catch (const std::exception&) {
    }
    emitStatus();
    close();
}

void ClusterBulkProducer::park(const QString& why)
{
    Impl& d = *m_impl;
    if (d.producer)
        d.last = d.producer->job().progress();
    close();
    d.parked = true;
    const QString message = tr("Redis at %1 cannot be reached (%2). The job is paused; the rows queued there and "
                               "every finished row are kept. Press Resume when Redis is back.")
                                .arg(d.request.redisUrl, why.isEmpty() ? tr("no answer") : why);
    BulkStatus s = statusOf(d.jobId, d.request, d.last);
    s.progress.state = BulkState::Paused;
    s.progress.inFlight = 0;
    s.progress.rowsPerSecond = 0;
    s.progress.etaSeconds = -1;
    s.error = message;
    Q_EMIT bulkStatus(s);
    ClusterJobView view;
    view.jobId = d.jobId;
    view.url = d.request.redisUrl;
    view.problem = message;
    Q_EMIT clusterStatus(view);
}

void ClusterBulkProducer::fail(const QString& why)
{
    Impl& d = *m_impl;
    BulkStatus s = statusOf(d.jobId, d.request, d.producer ? d.producer->job().progress() : d.last);
    s.progress.state = BulkState::Failed;
    s.error = why;
    close();
    d.parked = false;
    Q_EMIT bulkStatus(s);
}

void ClusterBulkProducer::close()
{
    Impl& d = *m_impl;
    d.producer.reset();
    d.redis.reset();
    d.journal.reset();
}

void ClusterBulkProducer::pause(quint64 jobId)
{
    Impl& d = *m_impl;
    if (jobId != d.jobId || !d.producer)
        return;
    d.producer->job().pause();
    emitStatus();
}

void ClusterBulkProducer::resume(quint64 jobId)
{
    Impl& d = *m_impl;
    if (jobId != d.jobId)
        return;
    if (d.parked) {
        if (open(true))
            scheduleStep();
        return;
    }
    if (!d.producer)
        return;
    d.producer->job().resume();
    emitStatus();
    scheduleStep();
}

void ClusterBulkProducer::cancel(quint64 jobId)
{
    Impl& d = *m_impl;
    if (jobId != d.jobId)
        return;
    if (d.producer) {
        d.producer->job().cancel();
        emitStatus();
        close();
    } else if (d.parked) {
        d.parked = false;
        BulkStatus s = statusOf(d.jobId, d.request, d.last);
        s.progress.state = BulkState::Cancelled;
        Q_EMIT bulkStatus(s);
    }
}

void ClusterBulkProducer::emitStatus(const QString& error)
{
    Impl& d = *m_impl;
    d.sinceStatus.restart();
    if (!d.producer)
        return;
    BulkStatus s = statusOf(d.jobId, d.request, d.producer->job().progress());
    s.resumed = d.producer->job().resumed();
    s.error = error;
    d.last = s.progress;
    Q_EMIT bulkStatus(s);
}

// Throws RedisStopped like the producer's calls.
void ClusterBulkProducer::emitView()
{
    Impl& d = *m_impl;
    d.sinceView.restart();
    if (!d.producer)
        return;
    const ClusterStatus status = d.redis->retrying([](RedisConnection& r) { return ClusterStatus::read(r, 1, 0); });
    ClusterJobView view = clusterJobView(status, d.producer->generator());
    view.jobId = d.jobId;
    view.url = d.request.redisUrl;
    view.refusals = d.refusals;
    Q_EMIT clusterStatus(view);
}

} // namespace couplet
