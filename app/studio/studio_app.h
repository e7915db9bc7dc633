#pragma once

#include "cluster_bulk_controller.h"
#include "engine_controller.h"
#include "bulk_import.h"
#include "history/history_store.h"
#include "local_api_server.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <QObject>
#include <QTranslator>

namespace couplet {

class HistoryModel;
class MainWindow;

// Creates the engine thread, the history and the main window, and connects
// them: GUI requests go to the engine, engine results to the widgets.
class StudioApp : public QObject {
    Q_OBJECT
public:
    explicit StudioApp(BackendLoader loader, QObject* parent = nullptr);
    ~StudioApp() override;

    MainWindow* window() const { return m_window; }
    EngineController* engine() { return &m_engine; }

    void loadModel(const QString& dir, const DeviceOptions& options = {});
    quint64 submit(const GenerationSpec& spec, bool bulk = false);
    // Rows queued in Redis at most for a job on workers (as `couplet batch --window`).
    static constexpr int kClusterWindow = 1024;

    // Runs a CSV through the engine at bulk priority with the prompt panel's
    // settings, or on the workers at import.redisUrl; the journal lives under
    // the app's data folder.
    quint64 startBulk(const BulkImport& import);
    // "" = the system locale.
    void setLanguage(const QString& locale);
    // Error dialogs are skipped (for screenshots and tests); the UI still shows them.
    void setQuiet(bool quiet) { m_quiet = quiet; }
    // Requests and bulk jobs the app still waits to hear the end of.
    int trackedCount() const { return int(m_tracks.size() + m_bulkJobs.size()); }
    LocalApiServer& apiServer() { return m_api; }
    // Starts or stops the local API server as the settings say, tells the
    // settings dialog how it went and saves them; "" or why it cannot listen.
    QString applyApiSettings(const ApiServerSettings& settings);

private:
    struct Track {
        GenerationSpec spec;
        QString prompt;
        QHash<int, int> tokens;   // per candidate
        bool api = false;         // from the local API server: not kept in the history
    };

    void connectEngine();
    void connectWindow();
    void onChunks(const QList<TextChunk>& chunks);
    void onCandidate(const CandidateResult& result);
    void onRequest(const RequestSummary& summary);
    void onStats(const EngineStats& stats);
    void onLoadFailed(const QString& message);
    void reportHistoryProblem(const QString& message);
    void onBulkStatus(const BulkStatus& status);
    void onApiRequest(const ApiRequestInfo& info);
    void connectBulkBar();
    void pauseBulk(quint64 jobId);
    void resumeBulk(quint64 jobId);
    void cancelBulk(quint64 jobId);
    static QString promptText(const GenerationSpec& spec);

    EngineController m_engine;
    // Declared after the engine: it stops, ending its requests, before the engine goes.
    LocalApiServer m_api;
    ClusterBulkController m_cluster;
    HistoryStore m_store;
    HistoryModel* m_historyModel = nullptr;
    MainWindow* m_window = nullptr;
    QTranslator m_translator;
    QTranslator m_qtTranslator;
    QHash<quint64, Track> m_tracks;
    QSet<quint64> m_bulkJobs;
    QSet<quint64> m_clusterJobs;   // those of m_bulkJobs that run on workers
    QHash<quint64, std::shared_ptr<BulkPosterSink>> m_posters;   // the jobs' posters, stopped when they end
    QElapsedTimer m_clock;
    bool m_quiet = false;
};

} // namespace couplet
