#include "cluster_bulk_controller.h"

#include "cluster_bulk_worker.h"

namespace couplet {

ClusterBulkController::ClusterBulkController(QObject* parent) : QObject(parent), m_worker(new ClusterBulkWorker)
{
    registerEngineMetaTypes();
    qRegisterMetaType<ClusterJobView>();
    m_thread.setObjectName(QStringLiteral("cluster producer"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &ClusterBulkWorker::bulkStatus, this, &ClusterBulkController::bulkStatus);
    connect(m_worker, &ClusterBulkWorker::clusterStatus, this, &ClusterBulkController::clusterStatus);
    m_thread.start();
}

// A step waits at most about 50 ms for results, and a Redis outage at most
// ClusterBulkWorker::kGiveUpMs, so quitting never waits long; the rows out
// at the workers stay in Redis and the journal, for resume.
ClusterBulkController::~ClusterBulkController()
{
    m_thread.quit();
    m_thread.wait();
}

void ClusterBulkController::start(quint64 jobId, const BulkRequest& request)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, jobId, request] { w->start(jobId, request); },
                              Qt::QueuedConnection);
}

void ClusterBulkController::pause(quint64 jobId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, jobId] { w->pause(jobId); }, Qt::QueuedConnection);
}

void ClusterBulkController::resume(quint64 jobId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, jobId] { w->resume(jobId); }, Qt::QueuedConnection);
}

void ClusterBulkController::cancel(quint64 jobId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, jobId] { w->cancel(jobId); }, Qt::QueuedConnection);
}

} // namespace couplet
