#include "cluster_bulk_controller.h"

#include "cluster_bulk_producer.h"

namespace couplet {

ClusterBulkController::ClusterBulkController(QObject* parent) : QObject(parent), m_producer(new ClusterBulkProducer)
{
    registerEngineMetaTypes();
    qRegisterMetaType<ClusterJobView>();
    m_thread.setObjectName(QStringLiteral("cluster producer"));
    m_producer->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_producer, &QObject::deleteLater);
    connect(m_producer, &ClusterBulkProducer::bulkStatus, this, &ClusterBulkController::bulkStatus);
    connect(m_producer, &ClusterBulkProducer::clusterStatus, this, &ClusterBulkController::clusterStatus);
    m_thread.start();
}

// A step waits at most about 50 ms for results, and a Redis outage at most
// ClusterBulkProducer::kGiveUpMs, so quitting never waits long; the rows out
// at the workers stay in Redis and the journal, for resume.
ClusterBulkController::~ClusterBulkController()
{
    m_thread.quit();
    m_thread.wait();
}

void ClusterBulkController::start(quint64 jobId, const BulkRequest& request)
{
    QMetaObject::invokeMethod(m_producer, [w = m_producer, jobId, request] { w->start(jobId, request); },
                              Qt::QueuedConnection);
}

void ClusterBulkController::pause(quint64 jobId)
{
    QMetaObject::invokeMethod(m_producer, [w = m_producer, jobId] { w->pause(jobId); }, Qt::QueuedConnection);
}

void ClusterBulkController::resume(quint64 jobId)
{
    QMetaObject::invokeMethod(m_producer, [w = m_producer, jobId] { w->resume(jobId); }, Qt::QueuedConnection);
}

void ClusterBulkController::cancel(quint64 jobId)
{
    QMetaObject::invokeMethod(m_producer, [w = m_producer, jobId] { w->cancel(jobId); }, Qt::QueuedConnection);
}

} // namespace couplet
