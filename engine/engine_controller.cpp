#include "engine_controller.h"

#include "engine_worker.h"

namespace couplet {

EngineController::EngineController(BackendLoader loader, QObject* parent)
    : QObject(parent), m_worker(new EngineWorker(std::move(loader)))
{
    registerEngineMetaTypes();
    m_thread.setObjectName(QStringLiteral("engine"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &EngineWorker::modelLoaded, this, &EngineController::modelLoaded);
    connect(m_worker, &EngineWorker::modelLoadFailed, this, &EngineController::modelLoadFailed);
    connect(m_worker, &EngineWorker::textChunks, this, &EngineController::textChunks);
    connect(m_worker, &EngineWorker::candidateFinished, this, &EngineController::candidateFinished);
    connect(m_worker, &EngineWorker::requestFinished, this, &EngineController::requestFinished);
    connect(m_worker, &EngineWorker::statsUpdated, this, &EngineController::statsUpdated);
    connect(m_worker, &EngineWorker::autoTunePoint, this, &EngineController::autoTunePoint);
    connect(m_worker, &EngineWorker::autoTuneFinished, this, &EngineController::autoTuneFinished);
    connect(m_worker, &EngineWorker::warning, this, &EngineController::warning);
    connect(m_worker, &EngineWorker::bulkStatus, this, &EngineController::bulkStatus);
    connect(m_worker, &EngineWorker::apiRequestStarted, this, &EngineController::apiRequestStarted);
    m_thread.start();
}

EngineController::~EngineController()
{
    m_thread.quit();
    m_thread.wait();
}

void EngineController::loadModel(const QString& dir, const DeviceOptions& options)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, dir, options] { w->loadModel(dir, options); },
                              Qt::QueuedConnection);
}

quint64 EngineController::submit(const GenerationSpec& spec, bool bulk)
{
    const quint64 id = m_nextId++;
    QMetaObject::invokeMethod(m_worker, [w = m_worker, id, spec, bulk] { w->submit(id, spec, bulk); },
                              Qt::QueuedConnection);
    return id;
}

void EngineController::cancel(quint64 requestId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, requestId] { w->cancel(requestId); },
                              Qt::QueuedConnection);
}

void EngineController::cancelAll()
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->cancelAll(); }, Qt::QueuedConnection);
}

void EngineController::setSettings(const EngineSettings& settings)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, settings] { w->setSettings(settings); },
                              Qt::QueuedConnection);
}

void EngineController::runAutoTune(const QList<int>& batchSizes)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, batchSizes] { w->runAutoTune(batchSizes); },
                              Qt::QueuedConnection);
}

quint64 EngineController::startBulk(const BulkRequest& request)
{
    const quint64 id = m_nextId++;
    QMetaObject::invokeMethod(m_worker, [w = m_worker, id, request] { w->startBulk(id, request); },
                              Qt::QueuedConnection);
    return id;
}

LoadedModel EngineController::loadedModel() const { return m_worker->loadedModel(); }

void EngineController::submitApi(const ApiJob& job)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, job] { w->submitApi(job); }, Qt::QueuedConnection);
}

void EngineController::pauseBulk(quint64 jobId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, jobId] { w->pauseBulk(jobId); }, Qt::QueuedConnection);
}

void EngineController::resumeBulk(quint64 jobId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, jobId] { w->resumeBulk(jobId); }, Qt::QueuedConnection);
}

void EngineController::cancelBulk(quint64 jobId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, jobId] { w->cancelBulk(jobId); }, Qt::QueuedConnection);
}

} // namespace couplet
