#pragma once

#include "cluster_job_view.h"
#include "engine_types.h"

#include <QObject>

#include <memory>

namespace couplet {

// A bulk job whose rows `couplet worker`s generate, produced on its own
// thread by the same code as `couplet batch --redis` (ClusterProducer: the
// BulkJob, its journal and output, over Redis Streams). It steps the job with
// queued calls, so pause, resume and cancel arrive between steps; each step
// waits at most about 50 ms for results. Reports BulkStatus like a local job,
// and a ClusterJobView (workers, queue, dead letters) once a second.
//
// When Redis cannot be reached for kGiveUpMs, the job is parked, as a model
// reload parks a local one: it is reported Paused with the reason, the rows
// already queued stay in Redis and the journal keeps every finished row, and
// resume() takes it up again from the journal.
class ClusterBulkProducer : public QObject {
    Q_OBJECT
public:
    static constexpr int kGiveUpMs = 3000;
    static constexpr int kStatusIntervalMs = 250;
    static constexpr int kViewIntervalMs = 1000;

    ClusterBulkProducer();
    ~ClusterBulkProducer() override;

    // request.redisUrl names the Redis; request.modelDir the model the workers must have.
    void start(quint64 jobId, const couplet::BulkRequest& request);
    void pause(quint64 jobId);
    void resume(quint64 jobId);
    void cancel(quint64 jobId);

Q_SIGNALS:
    void bulkStatus(const couplet::BulkStatus& status);
    void clusterStatus(const couplet::ClusterJobView& view);

private:
    bool open(bool resume);
    void step();
    void scheduleStep();
    bool wantsStep() const;
    void finishJob();
    void park(const QString& why);
    void fail(const QString& why);
    void close();
    void emitStatus(const QString& error = {});
    void emitView();

    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace couplet
