#include "main_window.h"

#include "bulk/bulk_job_bar.h"
#include "bulk/csv_import_dialog.h"
#include "charts/charts_panel.h"
#include "editor/editor_view.h"
#include "history/history_model.h"
#include "history/history_panel.h"
#include "preview/couplet_exporter.h"
#include "preview/couplet_preview.h"
#include "prompt/prompt_panel.h"
#include "queue/queue_model.h"
#include "queue/queue_view.h"
#include "settings/api_server_dialog.h"
#include "tuning/tuning_panel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QShowEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace couplet {

struct MainWindow::Actions {
    QMenu* file = nullptr;
    QMenu* generate = nullptr;
    QMenu* view = nullptr;
    QMenu* language = nullptr;
    QMenu* settings = nullptr;
    QAction* apiServer = nullptr;
    QMenu* help = nullptr;
    QAction* exportImage = nullptr;
    QAction* openModel = nullptr;
    QAction* quit = nullptr;
    QAction* bulk = nullptr;
    QAction* cancelAll = nullptr;
    QAction* goldInk = nullptr;
    QAction* blackInk = nullptr;
    QAction* rightToLeft = nullptr;
    QAction* fuDiamond = nullptr;
    QAction* systemLanguage = nullptr;
    QAction* english = nullptr;
    QAction* chinese = nullptr;
    QAction* about = nullptr;
};

namespace {

const CoupletText kSampleCouplet{QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户欢"),
                                 QStringLiteral("万象更新")};

} // namespace

MainWindow::MainWindow(HistoryModel* history, QWidget* parent)
    : QMainWindow(parent), m_actions(std::make_unique<Actions>()), m_prompt(new PromptPanel),
      m_preview(new CoupletPreview), m_editor(new EditorView), m_queueModel(new QueueModel(this)),
      m_queueView(new QueueView(m_queueModel)), m_charts(new ChartsPanel), m_tuning(new TuningPanel),
      m_history(new HistoryPanel(history)), m_bulkBar(new BulkJobBar), m_apiServer(new ApiServerDialog(this)), m_tabs(new QTabWidget), m_vertical(new QSplitter(Qt::Vertical)),
      m_horizontal(new QSplitter(Qt::Horizontal)), m_banner(new QLabel), m_modelLabel(new QLabel),
      m_throughputLabel(new QLabel)
{
    buildCentral();
    buildMenus();
    // Permanent, both: a temporary message (a history error, a finished bulk
    // job) then takes the space to their left instead of being drawn over them.
    statusBar()->addPermanentWidget(m_modelLabel);
    statusBar()->addPermanentWidget(m_throughputLabel);
    m_preview->setCouplet(kSampleCouplet);
    m_editor->showCouplet(kSampleCouplet);

    connect(m_editor, &EditorView::currentCoupletChanged, m_preview, &CoupletPreview::setCouplet);
    connect(m_history, &HistoryPanel::openRequested, this, [this](const HistoryEntry& e) {
        GenerationSpec spec;
        spec.mode = PromptMode(e.mode);
        spec.upper = e.couplet.upper.toStdString();
        m_editor->showCouplet(e.couplet, spec);
    });
    connect(m_history, &HistoryPanel::errorOccurred, this,
            [this](const QString& message) { QMessageBox::warning(this, tr("History"), message); });
    connect(m_queueView, &QueueView::cancelAllRequested, this, &MainWindow::cancelAllRequested);
    setModelStatus(false, tr("loading…"));
    retranslateUi();
    resize(1400, 900);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildCentral()
{
    auto* promptScroll = new QScrollArea;
    promptScroll->setWidget(m_prompt);
    promptScroll->setWidgetResizable(true);
    promptScroll->setMinimumWidth(300);
    m_horizontal->addWidget(promptScroll);
    m_horizontal->addWidget(m_preview);
    m_horizontal->addWidget(m_editor);
    m_horizontal->setStretchFactor(1, 3);
    m_horizontal->setStretchFactor(2, 2);
    auto* queueTab = new QWidget;
    auto* queueLayout = new QVBoxLayout(queueTab);
    queueLayout->setContentsMargins(0, 0, 0, 0);
    queueLayout->addWidget(m_bulkBar);
    queueLayout->addWidget(m_queueView, 1);
    // The tuning knobs sit next to the charts that show their effect.
    auto* chartsAndTuning = new QSplitter(Qt::Horizontal);
    chartsAndTuning->addWidget(m_charts);
    chartsAndTuning->addWidget(m_tuning);
    chartsAndTuning->setStretchFactor(0, 3);
    chartsAndTuning->setStretchFactor(1, 2);
    for (QWidget* tab : {queueTab, static_cast<QWidget*>(chartsAndTuning), static_cast<QWidget*>(m_history)})
        m_tabs->addTab(tab, QString());
    m_vertical->addWidget(m_horizontal);
    m_vertical->addWidget(m_tabs);
    m_vertical->setStretchFactor(0, 3);
    m_vertical->setStretchFactor(1, 2);

    m_banner->setWordWrap(true);
    m_banner->setStyleSheet(QStringLiteral(
        "QLabel { background: #fff3cd; color: #7a1d00; border: 1px solid #e0b44a;"
        " padding: 6px; font-weight: bold; }"));
    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(m_banner);
    layout->addWidget(m_vertical, 1);
    setCentralWidget(central);
}

void MainWindow::buildMenus()
{
    Actions& a = *m_actions;
    a.file = menuBar()->addMenu(QString());
    a.exportImage = a.file->addAction(QString(), this, &MainWindow::exportCouplet);
    a.exportImage->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    a.openModel = a.file->addAction(QString(), this, &MainWindow::askModelFolder);
    a.file->addSeparator();
    a.quit = a.file->addAction(QString(), this, &QWidget::close);
    a.quit->setShortcut(QKeySequence::Quit);

    a.generate = menuBar()->addMenu(QString());
    a.bulk = a.generate->addAction(QString(), this, &MainWindow::askBulkCsv);
    a.bulk->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    a.cancelAll = a.generate->addAction(QString(), this, &MainWindow::cancelAllRequested);

    a.view = menuBar()->addMenu(QString());
    auto* ink = new QActionGroup(this);
    a.goldInk = a.view->addAction(QString());
    a.blackInk = a.view->addAction(QString());
    for (QAction* action : {a.goldInk, a.blackInk}) {
        action->setCheckable(true);
        ink->addAction(action);
    }
    a.goldInk->setChecked(true);
    a.view->addSeparator();
    a.rightToLeft = a.view->addAction(QString());
    a.fuDiamond = a.view->addAction(QString());
    for (QAction* action : {a.rightToLeft, a.fuDiamond}) {
        action->setCheckable(true);
        action->setChecked(true);
    }
    // Connected once every action exists: updateStyle() reads them all.
    for (QAction* action : {a.goldInk, a.blackInk, a.rightToLeft, a.fuDiamond})
        connect(action, &QAction::toggled, this, &MainWindow::updateStyle);

    a.language = menuBar()->addMenu(QString());
    auto* languages = new QActionGroup(this);
    const QList<std::pair<QAction**, QString>> choices = {
        {&a.systemLanguage, QString()}, {&a.english, QStringLiteral("en")}, {&a.chinese, QStringLiteral("zh_CN")}};
    for (const auto& [slot, code] : choices) {
        *slot = a.language->addAction(QString());
        (*slot)->setCheckable(true);
        languages->addAction(*slot);
        connect(*slot, &QAction::triggered, this, [this, code] {
            m_language = code;
            Q_EMIT languageRequested(code);
        });
    }
    a.systemLanguage->setChecked(true);

    a.settings = menuBar()->addMenu(QString());
    a.apiServer = a.settings->addAction(QString(), m_apiServer, [this] {
        m_apiServer->show();
        m_apiServer->raise();
    });

    a.help = menuBar()->addMenu(QString());
    a.about = a.help->addAction(QString(), this, &MainWindow::about);
}

void MainWindow::retranslateUi()
{
    Actions& a = *m_actions;
    setWindowTitle(tr("Couplet Studio 春联工坊"));
    a.file->setTitle(tr("&File"));
    a.exportImage->setText(tr("&Export couplet (PNG, SVG, PDF)…"));
    a.openModel->setText(tr("&Open model folder…"));
    a.quit->setText(tr("&Quit"));
    a.generate->setTitle(tr("&Generate"));
    a.bulk->setText(tr("&Bulk generate from CSV…"));
    a.cancelAll->setText(tr("&Cancel all requests"));
    a.view->setTitle(tr("&View"));
    a.goldInk->setText(tr("Gold ink"));
    a.blackInk->setText(tr("Black ink"));
    a.rightToLeft->setText(tr("横批 reads right to left (traditional)"));
    a.fuDiamond->setText(tr("Show 福 diamond"));
    a.language->setTitle(tr("&Language"));
    a.systemLanguage->setText(tr("System language"));
    a.english->setText(QStringLiteral("English"));
    a.chinese->setText(QStringLiteral("简体中文"));
    a.settings->setTitle(tr("&Settings"));
    a.apiServer->setText(tr("Local &API server…"));
    a.help->setTitle(tr("&Help"));
    a.about->setText(tr("&About Couplet Studio"));
    m_tabs->setTabText(QueueTab, tr("Queue"));
    m_tabs->setTabText(ChartsTab, tr("Charts and tuning"));
    m_tabs->setTabText(HistoryTab, tr("History"));
    setModelStatus(m_modelLoaded, m_modelText);
}

void MainWindow::setModelStatus(bool loaded, const QString& text)
{
    m_modelLoaded = loaded;
    m_modelText = text;
    m_banner->setText(tr("Model not loaded: %1").arg(text));
    m_banner->setVisible(!loaded);
    m_modelLabel->setText(loaded ? tr("Model: %1").arg(text) : tr("Model not loaded"));
    m_prompt->setGenerateEnabled(loaded, loaded ? QString() : tr("Model not loaded: %1").arg(text));
}

void MainWindow::setThroughputText(const QString& text) { m_throughputLabel->setText(text); }
void MainWindow::showTab(int index) { m_tabs->setCurrentIndex(index); }

void MainWindow::updateStyle()
{
    CoupletStyle style = m_preview->coupletStyle();
    style.ink = m_actions->blackInk->isChecked() ? InkColor::Black : InkColor::Gold;
    style.hengpiRightToLeft = m_actions->rightToLeft->isChecked();
    style.showFuDiamond = m_actions->fuDiamond->isChecked();
    m_preview->setCoupletStyle(style);
}

void MainWindow::exportCouplet()
{
    QString selected;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export couplet"), QStringLiteral("couplet.png"),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &selected);
    if (path.isEmpty())
        return;
    const CoupletExporter exporter(m_preview->coupletStyle());
    const CoupletText text = m_preview->couplet();
    const QString suffix = QFileInfo(path).suffix().toLower();
    QString error;
    if (suffix == QLatin1String("svg")) {
        error = exporter.exportSvg(path, text, 1200);
    } else if (suffix == QLatin1String("pdf")) {
        error = exporter.exportPdf(path, text);
    } else {
        bool ok = false;
        const int height = QInputDialog::getInt(this, tr("PNG size"), tr("Height in pixels:"), 1600, 200,
                                                8000, 100, &ok);
        if (!ok)
            return;
        error = exporter.exportPng(path, text, height);
    }
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
}

void MainWindow::askBulkCsv()
{
    const QString input = QFileDialog::getOpenFileName(this, tr("Prompts CSV"), QString(),
                                                       tr("CSV files (*.csv *.txt);;All files (*)"));
    if (input.isEmpty())
        return;
    CsvImportDialog dialog(input, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    Q_EMIT bulkImportRequested(dialog.import());
    showTab(QueueTab);
}

void MainWindow::askModelFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Model folder"));
    if (!dir.isEmpty())
        Q_EMIT openModelRequested(dir);
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About Couplet Studio"),
                       tr("<h3>Couplet Studio 春联工坊 %1</h3><p>Writes Chinese spring couplets "
                          "with a small Transformer.</p>").arg(QApplication::applicationVersion()));
}

void MainWindow::saveSettings(QSettings& settings) const
{
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/vertical"), m_vertical->saveState());
    settings.setValue(QStringLiteral("window/horizontal"), m_horizontal->saveState());
    settings.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    settings.setValue(QStringLiteral("view/blackInk"), m_actions->blackInk->isChecked());
    settings.setValue(QStringLiteral("view/rightToLeft"), m_actions->rightToLeft->isChecked());
    settings.setValue(QStringLiteral("view/fuDiamond"), m_actions->fuDiamond->isChecked());
    settings.setValue(QStringLiteral("language"), m_language);
    m_prompt->saveSettings(settings);
    m_tuning->saveSettings(settings);
}

void MainWindow::restoreSettings(const QSettings& settings)
{
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_splittersRestored = m_vertical->restoreState(settings.value(QStringLiteral("window/vertical")).toByteArray())
                          && m_horizontal->restoreState(settings.value(QStringLiteral("window/horizontal")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    m_actions->blackInk->setChecked(settings.value(QStringLiteral("view/blackInk"), false).toBool());
    m_actions->rightToLeft->setChecked(settings.value(QStringLiteral("view/rightToLeft"), true).toBool());
    m_actions->fuDiamond->setChecked(settings.value(QStringLiteral("view/fuDiamond"), true).toBool());
    m_language = settings.value(QStringLiteral("language")).toString();
    m_actions->english->setChecked(m_language == QLatin1String("en"));
    m_actions->chinese->setChecked(m_language == QLatin1String("zh_CN"));
    m_actions->systemLanguage->setChecked(m_language.isEmpty());
    m_prompt->restoreSettings(settings);
    m_tuning->restoreSettings(settings);
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

// Sizes given before the first show are rescaled by the splitters' stretch
// factors when the window gets its real size, which left the preview narrow:
// the first layout is set once the window is laid out at its real size.
void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_splittersRestored)
        return;
    m_splittersRestored = true;
    QTimer::singleShot(0, this, &MainWindow::applyInitialSizes);
}

void MainWindow::applyInitialSizes()
{
    const int width = m_horizontal->width();
    const int prompt = 300;
    const int preview = (width - prompt) * 5 / 9;
    m_horizontal->setSizes({prompt, preview, width - prompt - preview});
    const int height = m_vertical->height();
    m_vertical->setSizes({height * 60 / 100, height - height * 60 / 100});
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    saveSettings(settings);
    event->accept();
}

} // namespace couplet
