#pragma once

#include "cluster_job_view.h"
#include "engine_types.h"

#include <QObject>
#include <QThread>

namespace couplet {

class ClusterBulkProducer;

// The GUI thread's handle on bulk jobs run by workers: owns the producer's
// thread (a ClusterBulkProducer) and forwards calls to it, like
// EngineController does for the engine. Job ids come from the caller (the
// engine's allocateId(), so that queue rows never share one).
class ClusterBulkController : public QObject {
    Q_OBJECT
public:
    explicit ClusterBulkController(QObject* parent = nullptr);
    ~ClusterBulkController() override;

    void start(quint64 jobId, const BulkRequest& request);
    void pause(quint64 jobId);
    void resume(quint64 jobId);
    void cancel(quint64 jobId);

Q_SIGNALS:
    void bulkStatus(const couplet::BulkStatus& status);
    void clusterStatus(const couplet::ClusterJobView& view);

private:
    QThread m_thread;
    ClusterBulkProducer* m_producer;
};

} // namespace couplet
