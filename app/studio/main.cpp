#include "studio_app.h"

#include "couplet_model.h"
#include "model_backend.h"
#include "mainwindow/main_window.h"
#include "preview/couplet_exporter.h"
#include "preview/couplet_preview.h"
#include "prompt/prompt_panel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
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
};

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
    parser.addOptions({model, device, shot, preview, delay, prompt, bulk, tab});
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
    studio.setQuiet(!options.screenshot.isEmpty());
    studio.loadModel(options.modelDir, options.device);
    for (const QString& keywords : options.prompts) {
        GenerationSpec spec = studio.window()->promptPanel()->spec();
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
