#pragma once

#include "propose_knee.h"
#include "scheduler_settings.h"

#include <QTimer>
#include <QWidget>

class QGroupBox;
class QLabel;
class QPushButton;
class QSettings;
class QSpinBox;

namespace couplet {

class DualAxisChart;

// Live engine settings, and an auto-tune sweep over batch sizes whose knee
// the user may accept as the new max_batch.
class TuningPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kApplyDelayMs = 300;

    explicit TuningPanel(QWidget* parent = nullptr);

    EngineSettings settings() const;
    // Shows `settings` without emitting settingsChanged.
    void setSettings(const EngineSettings& settings);
    static QList<int> sweepBatchSizes(int largest = 64);
    int proposedBatch() const { return m_proposed; }

    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

public Q_SLOTS:
    void startAutoTune();
    void addAutoTunePoint(const couplet::AutoTuneResult& point);
    void finishAutoTune(const QString& error = {});
    void acceptProposal();

Q_SIGNALS:
    void settingsChanged(const couplet::EngineSettings& settings);
    void autoTuneRequested(const QList<int>& batchSizes);

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildUi();
    void retranslateUi();
    void redrawSweep();
    void showProposal();

    QSpinBox* m_maxBatch;
    QSpinBox* m_maxWait;
    QSpinBox* m_maxStepTokens;
    QSpinBox* m_threads;
    QGroupBox* m_settingsBox;
    QGroupBox* m_autoTuneBox;
    QPushButton* m_autoTune;
    QPushButton* m_accept;
    QLabel* m_proposal;
    DualAxisChart* m_chart;
    QTimer m_applyTimer;
    QList<AutoTuneResult> m_points;
    int m_proposed = 0;
    bool m_quiet = false;
};

} // namespace couplet
