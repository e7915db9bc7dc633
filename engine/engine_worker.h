#pragma once

#include "api_job.h"
#include "loaded_model.h"
#include "engine_types.h"
#include "serving_groups.h"

#include <QObject>

#include <memory>
#include <string_view>

namespace couplet {

struct GroupResult;
struct SequenceResult;

// Lives on the engine thread and owns the scheduler and the decoder. It runs
// one scheduler step per event-loop turn and re-posts itself while work
// remains, so submissions, cancels and settings arrive between steps. Text is
// buffered and flushed as one textChunks() signal every kFlushIntervalMs.
// Every request ends with requestFinished() and every bulk job reports its
// end, whatever happens: a model reload cancels the requests in flight and
// parks the bulk job as Paused (resumeBulk() continues it on the new model).
// While an auto-tune measures, requests and bulk jobs are refused with a message.
// Requests of the local API server (submitApi()) run at bulk priority, so
// that work typed in the editor never waits behind them.
// No libtorch here: the model is reached through CoupletGenerator, and every
// request is turned into couplets by CandidateGroup (pimpl).
struct RequestInfo;

class EngineWorker : public QObject {
    Q_OBJECT
public:
    static constexpr int kFlushIntervalMs = 40;
    static constexpr int kStatsIntervalMs = 1000;

    explicit EngineWorker(BackendLoader loader);
    ~EngineWorker() override;

    // Thread-safe: the model loaded now, for the API server's request checks.
    LoadedModel loadedModel() const;
    // Engine thread (a queued call from an HTTP thread): the request's sequences
    // join the scheduler, or all fail with the reason.
    void submitApi(const couplet::ApiJob& job);

public Q_SLOTS:
    void loadModel(const QString& dir, const couplet::DeviceOptions& options);
    void submit(quint64 requestId, const couplet::GenerationSpec& spec, bool bulk);
    void cancel(quint64 requestId);
    void cancelAll();
    void setSettings(const couplet::EngineSettings& settings);
    void runAutoTune(const QList<int>& batchSizes);
    // One bulk CSV job at a time; its rows run at Bulk priority.
    void startBulk(quint64 jobId, const couplet::BulkRequest& request);
    void pauseBulk(quint64 jobId);
    void resumeBulk(quint64 jobId);
    void cancelBulk(quint64 jobId);

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
    // Why no request can run now ("" when they can).
    QString refusal() const;
    ServingGroupsOptions apiOptions(const ApiJob& job);
    void runStep();
    void scheduleStep();
    void flushChunks();
    void emitStats();
    bool hasWork() const;
    void failRequest(quint64 requestId, int candidates, const QString& message);
    void endWorkForReload();

    void startNextAutoTune();
    void stepAutoTune();
    void finishAutoTune(const QString& error);

    void appendDelta(quint64 requestId, int choice, std::string_view text, int tokens);
    void recordSequence(quint64 requestId, const SequenceResult& result);
    void sendChoices(quint64 requestId, int first, int count, const GroupResult& group, bool reranked);
    void groupDone(quint64 requestId);
    void finishRequest(quint64 requestId);

    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace couplet
