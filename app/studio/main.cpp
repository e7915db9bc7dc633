#include "studio_app.h"

#include "couplet_model.h"
#include "model_backend.h"
#include "mainwindow/main_window.h"
#include "preview/couplet_exporter.h"
#include "preview/couplet_preview.h"
#include "couplet_renderer.h"
#include "prompt/prompt_panel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QFontDatabase>
#include <QSqlDatabase>
#include <QTimer>

#include <iostream>

using namespace couplet;

namespace {

struct Options {
    QString modelDir;
    DeviceOptions device;
    QString screenshot;      // save the window here and quit
    QString previewExport;   // also export the preview as PNG
    int screenshotDelayMs = 3000;
    QStringList prompts;     // submitted at start
    QString bulkCsv;         // run at start, results next to it
    int tab = MainWindow::QueueTab;
    bool smokeTest = false;  // generate one couplet, print it, exit
};

constexpr int kSmokeTimeoutMs = 300000;

Options parseOptions(const QApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Couplet Studio 春联工坊: writes Chinese spring couplets."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption model(QStringLiteral("model"), QStringLiteral("Model folder."), QStringLiteral("dir"),
                                   QString::fromStdString(CoupletModel::defaultModelDir().string()));
    const QCommandLineOption device(QStringLiteral("device"), QStringLiteral("cpu, cuda or auto."),
                                    QStringLiteral("device"), QStringLiteral("auto"));
    const QCommandLineOption shot(QStringLiteral("screenshot"), QStringLiteral("Save a screenshot of the window and quit."),
                                  QStringLiteral("png"));
    const QCommandLineOption preview(QStringLiteral("export-preview"),
                                     QStringLiteral("With --screenshot: also export the couplet preview."),
                                     QStringLiteral("png"));
    const QCommandLineOption delay(QStringLiteral("screenshot-delay"), QStringLiteral("Milliseconds before the screenshot."),
                                   QStringLiteral("ms"), QStringLiteral("3000"));
    const QCommandLineOption prompt(QStringLiteral("prompt"), QStringLiteral("Keywords to generate at start (repeatable)."),
                                    QStringLiteral("keywords"));
    const QCommandLineOption bulk(QStringLiteral("bulk-csv"),
                                  QStringLiteral("Run a prompts CSV at start (results in FILE-couplets.csv)."),
                                  QStringLiteral("file"));
    const QCommandLineOption tab(QStringLiteral("tab"), QStringLiteral("Tab to show: queue, charts or history."),
                                 QStringLiteral("name"), QStringLiteral("queue"));
    const QCommandLineOption smoke(QStringLiteral("smoke-test"),
                                   QStringLiteral("Load the model, write one couplet through the engine, print it "
                                                  "and exit (0 on success)."));
    parser.addOptions({model, device, shot, preview, delay, prompt, bulk, tab, smoke});
    parser.process(app);
    Options o;
    o.modelDir = parser.value(model);
    o.device.device = parser.value(device).toStdString();
    o.screenshot = parser.value(shot);
    o.previewExport = parser.value(preview);
    o.screenshotDelayMs = parser.value(delay).toInt();
    o.prompts = parser.values(prompt);
    o.bulkCsv = parser.value(bulk);
    const QStringList tabs{QStringLiteral("queue"), QStringLiteral("charts"), QStringLiteral("history")};
    o.tab = std::max(0, int(tabs.indexOf(parser.value(tab))));
    o.smokeTest = parser.isSet(smoke);
    return o;
}

void scheduleScreenshot(StudioApp& studio, const Options& o)
{
    QTimer::singleShot(o.screenshotDelayMs, &studio, [&studio, o] {
        MainWindow* window = studio.window();
        if (!window->grab().save(o.screenshot))
            std::cerr << "cannot write " << o.screenshot.toStdString() << '\n';
        if (!o.previewExport.isEmpty()) {
            const QString error = CoupletExporter(window->preview()->coupletStyle())
                                      .exportPng(o.previewExport, window->preview()->couplet(), 1200);
            if (!error.isEmpty())
                std::cerr << error.toStdString() << '\n';
        }
        QApplication::quit();
    });
}

// The checks of --smoke-test that need no model: what a package can miss.
bool checkRuntime()
{
    bool ok = true;
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        std::cerr << "smoke test: the Qt SQLite driver is missing (install libqt6sql6-sqlite): no history\n";
        ok = false;
    }
    const QString font = CoupletRenderer::brushFontFamily();
    std::cout << "smoke test: platform " << QGuiApplication::platformName().toStdString() << ", preview font "
              << font.toStdString() << '\n';
    if (!QFontDatabase::families().contains(QStringLiteral("AR PL UKai CN")))
        std::cerr << "smoke test: warning: the brush font is missing (install fonts-arphic-ukai)\n";
    return ok;
}

// --smoke-test: the app as it starts for a user, then one couplet for 五福
// through the engine thread; exits 0 when it was written, 1 with the reason.
void scheduleSmokeTest(StudioApp& studio)
{
    auto finish = [](int code, const std::string& message) {
        (code == 0 ? std::cout : std::cerr) << "smoke test: " << message << '\n';
        QCoreApplication::exit(code);
    };
    if (!checkRuntime()) {
        QTimer::singleShot(0, &studio, [finish] { finish(1, "failed"); });
        return;
    }
    EngineController* engine = studio.engine();
    auto requestId = std::make_shared<quint64>(0);
    QObject::connect(engine, &EngineController::modelLoadFailed, &studio, [finish](const QString& message) {
        finish(1, "failed: cannot load the model: " + message.toStdString());
    });
    QObject::connect(engine, &EngineController::modelLoaded, &studio,
                     [&studio, requestId](const QString& device, const QString& summary) {
        std::cout << "smoke test: model " << summary.toStdString() << " on " << device.toStdString() << '\n';
        GenerationSpec spec = studio.window()->promptPanel()->spec();
        spec.mode = PromptMode::Keywords;
        spec.keywords = "五福";
        spec.candidates = 1;
        *requestId = studio.submit(spec);
    });
    QObject::connect(engine, &EngineController::candidateFinished, &studio,
                     [requestId](const CandidateResult& r) {
        if (r.requestId == *requestId && r.outcome == Outcome::Done)
            std::cout << "上联 " << r.upper.toStdString() << "\n下联 " << r.lower.toStdString() << "\n横批 "
                      << r.hengpi.toStdString() << '\n';
    });
    QObject::connect(engine, &EngineController::requestFinished, &studio,
                     [finish, requestId](const RequestSummary& s) {
        if (s.requestId != *requestId) return;
        if (s.outcome == Outcome::Done)
            finish(0, "passed (" + std::to_string(int(s.latencyMs)) + " ms)");
        else
            finish(1, "failed: the request ended without a couplet: " + s.error.toStdString());
    });
    QTimer::singleShot(kSmokeTimeoutMs, &studio, [finish] {
        finish(1, "failed: no couplet after " + std::to_string(kSmokeTimeoutMs / 1000) + " s");
    });
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("CoupletStudio"));
    QApplication::setApplicationName(QStringLiteral("couplet-studio"));
    QApplication::setApplicationDisplayName(QStringLiteral("Couplet Studio 春联工坊"));
    QApplication::setApplicationVersion(QStringLiteral(COUPLET_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/couplet-studio.svg")));
    const Options options = parseOptions(app);

    StudioApp studio(&loadModelBackend);
    studio.setQuiet(!options.screenshot.isEmpty() || options.smokeTest);
    if (options.smokeTest)
        scheduleSmokeTest(studio);
    studio.loadModel(options.modelDir, options.device);
    for (const QString& keywords : options.prompts) {
        // The panel's settings, its name to embed (嵌名) included, with these keywords.
        GenerationSpec spec = studio.window()->promptPanel()->spec();
        if (spec.mode != PromptMode::Acrostic)
            spec.mode = PromptMode::Keywords;
        spec.keywords = keywords.toStdString();
        studio.submit(spec);
    }
    if (!options.bulkCsv.isEmpty()) {
        const QFileInfo input(options.bulkCsv);
        BulkImport bulk;
        bulk.input = input.absoluteFilePath();
        bulk.output = input.absolutePath() + QLatin1Char('/') + input.completeBaseName()
                      + QStringLiteral("-couplets.csv");
        studio.startBulk(bulk);
    }
    studio.window()->showTab(options.tab);
    studio.window()->show();
    if (!options.screenshot.isEmpty())
        scheduleScreenshot(studio, options);
    return app.exec();
}
