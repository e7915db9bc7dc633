#include "studio_app.h"

#include "bulk/bulk_job_bar.h"
#include "charts/charts_panel.h"
#include "editor/editor_view.h"
#include "history/history_model.h"
#include "mainwindow/main_window.h"
#include "prompt/prompt_panel.h"
#include "queue/queue_model.h"
#include "queue/queue_view.h"
#include "settings/api_server_dialog.h"
#include "tuning/tuning_panel.h"

#include "embed_position.h"
#include "script_converter.h"
#include "bulk_posters.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

namespace couplet {
namespace {

// A finished candidate's text in the script its request asked for.
CoupletText shownIn(const CandidateResult& r, OutputScript script)
{
    if (script == OutputScript::Simplified)
        return {r.upper, r.lower, r.hengpi};
    Couplet c;
    c.upper = r.upper.toStdString();
    c.lower = r.lower.toStdString();
    c.hengpi = r.hengpi.toStdString();
    c = inScript(c, script);
    return {QString::fromStdString(c.upper), QString::fromStdString(c.lower), QString::fromStdString(c.hengpi)};
}

QueueState stateOf(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Done: return QueueState::Done;
    case Outcome::Failed: return QueueState::Failed;
    case Outcome::Cancelled: return QueueState::Cancelled;
    }
    return QueueState::Failed;
}

// Tokens a candidate writes: two lines, a 横批 and separators (an estimate
// for the progress bar only).
int expectedTokens(const GenerationSpec& spec)
{
    return spec.length > 0 ? 2 * spec.length + 8 : 30;
}

} // namespace

StudioApp::StudioApp(BackendLoader loader, QObject* parent)
    : QObject(parent), m_engine(std::move(loader)), m_api(m_engine)
{
    m_clock.start();
    const QString error = m_store.open();
    m_historyModel = new HistoryModel(this, m_store.database());
    m_window = new MainWindow(m_historyModel);
    m_window->setAttribute(Qt::WA_DeleteOnClose, false);
    connectEngine();
    connectWindow();
    QSettings settings;
    m_window->restoreSettings(settings);
    setLanguage(settings.value(QStringLiteral("language")).toString());
    m_engine.setSettings(m_window->tuning()->settings());
    const ApiServerSettings api = ApiServerSettings::load(settings);
    m_window->apiServerDialog()->setSettings(api);
    if (api.enabled)
        applyApiSettings(api);
    if (!error.isEmpty())
        reportHistoryProblem(error);
}

// Once, at start-up: in the status bar, and in a dialog unless quiet (set
// after construction, hence the queued call).
void StudioApp::reportHistoryProblem(const QString& message)
{
    m_window->statusBar()->showMessage(message);
    QMetaObject::invokeMethod(this, [this, message] {
        if (m_quiet)
            return;
        auto* box = new QMessageBox(QMessageBox::Warning, tr("History"), message, QMessageBox::Ok, m_window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }, Qt::QueuedConnection);
}

StudioApp::~StudioApp()
{
    // Open API requests and streams end first, while the engine still runs.
    m_api.stop();
    // Posters not begun are dropped (a resumed job draws them), so that the
    // engine, which may wait for room in their queue, closes at once.
    for (const auto& sink : std::as_const(m_posters))
        sink->stop();
    // The model's queries use the store's connection: both go before the store.
    delete m_window;
    delete m_historyModel;
}

void StudioApp::connectEngine()
{
    connect(&m_engine, &EngineController::modelLoaded, this, [this](const QString& device, const QString& summary) {
        m_window->setModelStatus(true, device + QStringLiteral(" — ") + summary);
    });
    connect(&m_engine, &EngineController::modelLoadFailed, this, &StudioApp::onLoadFailed);
    connect(&m_engine, &EngineController::textChunks, this, &StudioApp::onChunks);
    connect(&m_engine, &EngineController::candidateFinished, this, &StudioApp::onCandidate);
    connect(&m_engine, &EngineController::requestFinished, this, &StudioApp::onRequest);
    connect(&m_engine, &EngineController::statsUpdated, this, &StudioApp::onStats);
    connect(&m_engine, &EngineController::warning, this,
            [this](const QString& message) { m_window->statusBar()->showMessage(message, 10000); });
    connect(&m_engine, &EngineController::autoTunePoint, m_window->tuning(), &TuningPanel::addAutoTunePoint);
    connect(&m_engine, &EngineController::autoTuneFinished, m_window->tuning(), &TuningPanel::finishAutoTune);
    connect(&m_engine, &EngineController::bulkStatus, this, &StudioApp::onBulkStatus);
    connect(&m_engine, &EngineController::apiRequestStarted, this, &StudioApp::onApiRequest);
    connect(&m_store, &HistoryStore::changed, m_historyModel, &HistoryModel::refresh);
    connect(&m_store, &HistoryStore::writeFailed, this,
            [this](const QString& message) { m_window->statusBar()->showMessage(message); });
}

void StudioApp::connectWindow()
{
    connect(m_window->promptPanel(), &PromptPanel::generateRequested, this,
            [this](const GenerationSpec& spec) { submit(spec); });
    connect(m_window->editor(), &EditorView::regenerateRequested, this,
            [this](const GenerationSpec& spec) { submit(spec); });
    connect(m_window, &MainWindow::bulkImportRequested, this, [this](const BulkImport& b) { startBulk(b); });
    connectBulkBar();
    connect(m_window->queueView(), &QueueView::cancelRequested, this, [this](const QList<quint64>& ids) {
        for (quint64 id : ids) {
            if (m_bulkJobs.contains(id))
                cancelBulk(id);
            else
                m_engine.cancel(id);
        }
    });
    connect(m_window, &MainWindow::cancelAllRequested, &m_engine, &EngineController::cancelAll);
    connect(m_window->tuning(), &TuningPanel::settingsChanged, &m_engine, &EngineController::setSettings);
    connect(m_window->tuning(), &TuningPanel::autoTuneRequested, &m_engine, &EngineController::runAutoTune);
    connect(m_window, &MainWindow::languageRequested, this, &StudioApp::setLanguage);
    connect(m_window, &MainWindow::openModelRequested, this, [this](const QString& dir) { loadModel(dir); });
    connect(m_window->apiServerDialog(), &ApiServerDialog::settingsChanged, this, &StudioApp::applyApiSettings);
}

void StudioApp::loadModel(const QString& dir, const DeviceOptions& options)
{
    m_window->setModelStatus(false, tr("loading %1…").arg(dir));
    m_engine.loadModel(dir, options);
}

QString StudioApp::promptText(const GenerationSpec& spec)
{
    switch (spec.mode) {
    case PromptMode::Keywords: return tr("关键词: %1").arg(QString::fromStdString(spec.keywords));
    case PromptMode::Upper: return tr("上联: %1").arg(QString::fromStdString(spec.upper));
    case PromptMode::Acrostic:
        if (spec.embedAt != 1)
            return tr("嵌名 %1: %2").arg(QString::fromStdString(std::string(embedPositionShortName(spec.embedAt))),
                                       QString::fromStdString(spec.acrostic));
        return tr("藏头: %1").arg(QString::fromStdString(spec.acrostic));
    }
    return {};
}

quint64 StudioApp::submit(const GenerationSpec& spec, bool bulk)
{
    const quint64 id = m_engine.submit(spec, bulk);
    QueueEntry entry;
    entry.id = id;
    entry.prompt = promptText(spec);
    entry.bulk = bulk;
    entry.candidates = spec.candidates;
    m_window->queueModel()->addRequest(entry);
    m_tracks.insert(id, {spec, entry.prompt, {}});
    if (!bulk)
        m_window->editor()->beginRequest(id, spec);
    return id;
}

quint64 StudioApp::startBulk(const BulkImport& b)
{
    BulkRequest r;
    static_cast<BulkImport&>(r) = b;
    QString posterProblem;
    if (!b.posters.dir.empty()) {
        BulkPosterOptions options = b.posters;
        // The engine's thread serves the editor too: it does not wait for
        // posters; a job on workers is produced on a thread of its own.
        options.settleWaitMs = b.redisUrl.isEmpty() ? 0 : 50;
        try {
            r.posterSink = makeBulkPosters(options);
        } catch (const PosterOptionsError& e) {
            posterProblem = tr("Posters: the %1: %2")
                                .arg(e.option() == "font" ? tr("font") : tr("size"), QString::fromStdString(e.what()));
        } catch (const std::exception& e) {
            posterProblem = tr("Posters: %1").arg(QString::fromStdString(e.what()));
        }
    }
    r.defaults = m_window->promptPanel()->spec();
    r.defaults.candidates = 1;
    r.defaults.bestOf = b.candidatesPerRow; // 0: the bulk default (SchedulerRowGenerator::groupSpec)
    // Rows in flight: enough to fill every slot twice over.
    r.maxInFlight = std::max(16, 2 * m_window->tuning()->settings().maxBatch);
    const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dataDir);
    r.journal = dataDir + QStringLiteral("/jobs.sqlite");
    quint64 id = 0;
    if (!posterProblem.isEmpty()) {
        id = m_engine.allocateId();
    } else if (b.redisUrl.isEmpty()) {
        id = m_engine.startBulk(r);
    } else {
        // The workers load the model the job names: the one loaded here.
        r.modelDir = QString::fromStdString(m_engine.loadedModel().dir);
        r.maxInFlight = kClusterWindow;
        id = m_engine.allocateId();
        m_clusterJobs.insert(id);
        m_cluster.start(id, r);
    }
    m_bulkJobs.insert(id);
    QueueEntry entry;
    entry.id = id;
    entry.prompt = b.redisUrl.isEmpty() ? tr("CSV %1").arg(QFileInfo(b.input).fileName())
                                        : tr("CSV %1 on workers").arg(QFileInfo(b.input).fileName());
    entry.bulk = true;
    m_window->queueModel()->addRequest(entry);
    m_window->showTab(MainWindow::QueueTab);
    if (r.posterSink)
        m_posters.insert(id, r.posterSink);
    if (!posterProblem.isEmpty()) {
        BulkStatus failed;
        failed.jobId = id;
        failed.input = b.input;
        failed.output = b.output;
        failed.progress.state = BulkState::Failed;
        failed.error = posterProblem;
        onBulkStatus(failed);
    }
    return id;
}

// The whole job is one queue row; the bar above the queue has the details.
void StudioApp::onBulkStatus(const BulkStatus& s)
{
    const BulkProgress& p = s.progress;
    m_window->bulkBar()->setStatus(s.jobId, s.input, p, s.error);
    if (s.hasPosters)
        m_window->bulkBar()->setPosterStatus(s.posters);
    QueueModel* queue = m_window->queueModel();
    const QString name = m_clusterJobs.contains(s.jobId) ? tr("%1 on workers").arg(QFileInfo(s.input).fileName())
                                                         : QFileInfo(s.input).fileName();
    queue->setPrompt(s.jobId, tr("CSV %1: %2 of %3 rows, %4 in flight").arg(name).arg(p.done()).arg(p.total).arg(p.inFlight));
    if (p.state == BulkState::Running || p.state == BulkState::Paused) {
        queue->setProgress(s.jobId, p.total > 0 ? double(p.done()) / double(p.total) : 0);
        if (p.state == BulkState::Paused)
            queue->setPaused(s.jobId);
        if (!s.error.isEmpty())
            m_window->statusBar()->showMessage(tr("Bulk job paused: %1").arg(s.error.section(QStringLiteral(". "), 0, 0)),
                                               10000);
        return;
    }
    if (p.state == BulkState::Idle)
        return;
    const QueueState state = p.state == BulkState::Finished    ? QueueState::Done
                             : p.state == BulkState::Cancelled ? QueueState::Cancelled
                                                               : QueueState::Failed;
    queue->finish(s.jobId, state, 0, 0, s.error);
    // Finished: every poster is written. Otherwise those not begun are
    // dropped; resuming the job draws them.
    if (const auto sink = m_posters.take(s.jobId))
        sink->stop();
    m_bulkJobs.remove(s.jobId);
    m_clusterJobs.remove(s.jobId);
    if (p.state == BulkState::Finished)
        m_window->statusBar()->showMessage(tr("Bulk job done: %1").arg(s.output), 10000);
    else if (!s.error.isEmpty())
        m_window->statusBar()->showMessage(tr("Bulk job failed: %1").arg(s.error), 10000);
}

void StudioApp::onChunks(const QList<TextChunk>& chunks)
{
    EditorView* editor = m_window->editor();
    QSet<quint64> touched;
    for (const TextChunk& c : chunks) {
        editor->updateCandidate(c.requestId, c.candidate, {c.upper, c.lower, c.hengpi});
        const auto it = m_tracks.find(c.requestId);
        if (it == m_tracks.end())
            continue;
        it->tokens[c.candidate] = c.tokens;
        touched.insert(c.requestId);
    }
    for (quint64 id : touched) {
        const Track& t = m_tracks[id];
        const int expected = expectedTokens(t.spec);
        double sum = 0;
        for (int tokens : t.tokens)
            sum += std::min(tokens, expected);
        m_window->queueModel()->setProgress(id, 0.99 * sum / (expected * std::max(1, t.spec.candidates)));
    }
}

void StudioApp::onCandidate(const CandidateResult& r)
{
    const auto it = m_tracks.constFind(r.requestId);
    // Written in Simplified, shown in the script asked for once chosen.
    const CoupletText text = it == m_tracks.cend() ? CoupletText{r.upper, r.lower, r.hengpi} : shownIn(r, it->spec.script);
    m_window->editor()->finishCandidate(r.requestId, r.candidate, text, r.score,
                                        r.outcome == Outcome::Failed ? r.error : QString(), r.reranked ? &r.parts : nullptr);
    if (r.outcome != Outcome::Done || it == m_tracks.cend() || it->api)
        return;
    HistoryEntry e;
    e.couplet = text;
    e.prompt = it->prompt;
    e.mode = int(it->spec.mode);
    e.score = r.score;
    e.seed = r.seed;
    m_store.add(e);
}

void StudioApp::onRequest(const RequestSummary& s)
{
    m_window->queueModel()->finish(s.requestId, stateOf(s.outcome), s.latencyMs, s.tokensPerSecond, s.error);
    if (s.outcome == Outcome::Failed && m_window->editor()->currentRequestId() == s.requestId) {
        m_window->editor()->showFailure(s.requestId, s.error);
        m_window->statusBar()->showMessage(tr("Request %1 failed: %2").arg(s.requestId).arg(s.error), 10000);
    }
    m_tracks.remove(s.requestId);
}

void StudioApp::onStats(const EngineStats& s)
{
    m_api.updateGauges(s);
    m_window->charts()->addSample({m_clock.elapsed() / 1000.0, s});
    const ThroughputSnapshot& t = s.throughput;
    m_window->setThroughputText(tr("%1 tokens/s · %2 couplets/s · %3/%4 slots · %5 waiting")
                                    .arg(t.tokensPerSecond, 0, 'f', 0)
                                    .arg(t.coupletsPerSecond, 0, 'f', 1)
                                    .arg(s.running).arg(s.maxBatch).arg(t.queueDepth));
}

void StudioApp::connectBulkBar()
{
    BulkJobBar* bar = m_window->bulkBar();
    connect(bar, &BulkJobBar::pauseRequested, this, &StudioApp::pauseBulk);
    connect(bar, &BulkJobBar::resumeRequested, this, &StudioApp::resumeBulk);
    connect(bar, &BulkJobBar::cancelRequested, this, &StudioApp::cancelBulk);
    connect(&m_cluster, &ClusterBulkController::bulkStatus, this, &StudioApp::onBulkStatus);
    connect(&m_cluster, &ClusterBulkController::clusterStatus, bar, &BulkJobBar::setClusterStatus);
}

void StudioApp::pauseBulk(quint64 jobId)
{
    if (m_clusterJobs.contains(jobId))
        m_cluster.pause(jobId);
    else
        m_engine.pauseBulk(jobId);
}

void StudioApp::resumeBulk(quint64 jobId)
{
    if (m_clusterJobs.contains(jobId))
        m_cluster.resume(jobId);
    else
        m_engine.resumeBulk(jobId);
}

void StudioApp::cancelBulk(quint64 jobId)
{
    if (m_clusterJobs.contains(jobId))
        m_cluster.cancel(jobId);
    else
        m_engine.cancelBulk(jobId);
}

QString StudioApp::applyApiSettings(const ApiServerSettings& requested)
{
    ApiServerSettings s = requested;
    QString error;
    if (s.enabled)
        error = m_api.start(s);
    else
        m_api.stop();
    s.enabled = m_api.isRunning();
    m_window->apiServerDialog()->setServerState(s.enabled, error);
    m_window->statusBar()->showMessage(!error.isEmpty() ? error
                                       : s.enabled      ? tr("Local API server on %1").arg(s.url())
                                                        : tr("Local API server stopped"),
                                       10000);
    QSettings settings;
    s.save(settings);
    return error;
}

// A request of the local API server: one queue row for all its prompts.
void StudioApp::onApiRequest(const ApiRequestInfo& info)
{
    QueueEntry entry;
    entry.id = info.requestId;
    entry.prompt = tr("API: %1").arg(promptText(info.first));
    if (info.prompts > 1)
        entry.prompt += tr(" (+%1 more)").arg(info.prompts - 1);
    entry.api = true;
    entry.candidates = info.sequences;
    m_window->queueModel()->addRequest(entry);
    Track track{info.first, entry.prompt, {}, true};
    track.spec.candidates = info.sequences;
    m_tracks.insert(info.requestId, track);
}

void StudioApp::onLoadFailed(const QString& message)
{
    m_window->setModelStatus(false, message);
    if (m_quiet)
        return;
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Model not loaded"),
                                tr("The model could not be loaded:\n%1").arg(message), QMessageBox::Ok, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void StudioApp::setLanguage(const QString& locale)
{
    QApplication::removeTranslator(&m_translator);
    QApplication::removeTranslator(&m_qtTranslator);
    const QLocale chosen = locale.isEmpty() ? QLocale::system() : QLocale(locale);
    if (chosen.language() == QLocale::Chinese) {
        if (m_translator.load(QStringLiteral(":/i18n/couplet_studio_zh_CN.qm")))
            QApplication::installTranslator(&m_translator);
        if (m_qtTranslator.load(QLocale(QLocale::Chinese, QLocale::China), QStringLiteral("qtbase"),
                                QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QApplication::installTranslator(&m_qtTranslator);
    }
    // Installing or removing a translator sends LanguageChange: every widget retranslates itself.
}

} // namespace couplet
