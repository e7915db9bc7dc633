#pragma once

#include "api_job.h"
#include "loaded_model.h"
#include "engine_types.h"

#include <QObject>
#include <QThread>

#include <atomic>

namespace couplet {

class EngineWorker;

// The GUI thread's handle on the engine: owns the engine thread and forwards
// calls to the EngineWorker living there. Request ids are allocated here, so
// the GUI can show a request before the engine has seen it; allocateId(),
// loadedModel() and submitApi() may be called from any thread (the local API
// server's HTTP threads).
class EngineController : public QObject {
    Q_OBJECT
public:
    explicit EngineController(BackendLoader loader, QObject* parent = nullptr);
    ~EngineController() override;

    void loadModel(const QString& dir, const DeviceOptions& options = {});
    quint64 submit(const GenerationSpec& spec, bool bulk = false);
    void cancel(quint64 requestId);
    void cancelAll();
    void setSettings(const EngineSettings& settings);
    void runAutoTune(const QList<int>& batchSizes);
    // A bulk CSV job; returns its id (also its scheduler job id).
    quint64 startBulk(const BulkRequest& request);
    void pauseBulk(quint64 jobId);
    void resumeBulk(quint64 jobId);
    void cancelBulk(quint64 jobId);

    quint64 allocateId() { return m_nextId++; }
    LoadedModel loadedModel() const;
    // A request of the local API server (its id from allocateId()).
    void submitApi(const ApiJob& job);

Q_SIGNALS:
    void modelLoaded(const QString& device, const QString& summary);
    void modelLoadFailed(const QString& message);
    void textChunks(const QList<couplet::TextChunk>& chunks);
    void candidateFinished(const couplet::CandidateResult& result);
    void requestFinished(const couplet::RequestSummary& summary);
    void statsUpdated(const couplet::EngineStats& stats);
    void autoTunePoint(const couplet::AutoTuneResult& point);
    void autoTuneFinished(const QString& error);
    void warning(const QString& message);
    void bulkStatus(const couplet::BulkStatus& status);
    void apiRequestStarted(const couplet::ApiRequestInfo& info);

private:
    QThread m_thread;
    EngineWorker* m_worker;
    std::atomic<quint64> m_nextId{1};
};

} // namespace couplet
