#pragma once

#include "generation_spec.h"
#include "bulk_import.h"
#include "couplet_style.h"

#include <QMainWindow>

#include <memory>

class QActionGroup;
class QLabel;
class QSettings;
class QSplitter;
class QTabWidget;

namespace couplet {

class ApiServerDialog;
class BulkJobBar;
class ChartsPanel;
class CoupletPreview;
class EditorView;
class HistoryModel;
class HistoryPanel;
class PromptPanel;
class QueueModel;
class QueueView;
class TuningPanel;

// The studio window: prompt, preview and editor on top; queue, charts, tuning
// and history in tabs below. It wires its own widgets to each other; the app
// connects it to the engine through the panels' signals.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Tab { QueueTab, ChartsTab, HistoryTab };

    explicit MainWindow(HistoryModel* history, QWidget* parent = nullptr);
    ~MainWindow() override;

    PromptPanel* promptPanel() const { return m_prompt; }
    EditorView* editor() const { return m_editor; }
    CoupletPreview* preview() const { return m_preview; }
    QueueModel* queueModel() const { return m_queueModel; }
    QueueView* queueView() const { return m_queueView; }
    ChartsPanel* charts() const { return m_charts; }
    TuningPanel* tuning() const { return m_tuning; }
    HistoryPanel* history() const { return m_history; }
    BulkJobBar* bulkBar() const { return m_bulkBar; }
    // Settings > Local API server (not modal; the app wires it to the server).
    ApiServerDialog* apiServerDialog() const { return m_apiServer; }

    // Shows whether a model is loaded; `text` is its summary or why it is not.
    void setModelStatus(bool loaded, const QString& text);
    void setThroughputText(const QString& text);
    void showTab(int index);
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

Q_SIGNALS:
    void bulkImportRequested(const couplet::BulkImport& import);
    void cancelAllRequested();
    // "" = follow the system locale, else e.g. "zh_CN" or "en".
    void languageRequested(const QString& locale);
    void openModelRequested(const QString& dir);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildCentral();
    void buildMenus();
    void retranslateUi();
    void exportCouplet();
    void askBulkCsv();
    void askModelFolder();
    void updateStyle();
    void applyInitialSizes();
    void about();

    struct Actions;
    std::unique_ptr<Actions> m_actions;
    PromptPanel* m_prompt;
    CoupletPreview* m_preview;
    EditorView* m_editor;
    QueueModel* m_queueModel;
    QueueView* m_queueView;
    ChartsPanel* m_charts;
    TuningPanel* m_tuning;
    HistoryPanel* m_history;
    BulkJobBar* m_bulkBar;
    ApiServerDialog* m_apiServer;
    QTabWidget* m_tabs;
    QSplitter* m_vertical;
    QSplitter* m_horizontal;
    QLabel* m_banner;
    QLabel* m_modelLabel;
    QLabel* m_throughputLabel;
    bool m_modelLoaded = false;
    bool m_splittersRestored = false;
    QString m_modelText;
    QString m_language;
};

} // namespace couplet
