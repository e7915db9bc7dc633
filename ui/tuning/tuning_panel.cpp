#include "tuning_panel.h"

#include "charts/dual_axis_chart.h"

#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace couplet {
namespace {

QString key(const char* name) { return QStringLiteral("tuning/") + QLatin1String(name); }

} // namespace

TuningPanel::TuningPanel(QWidget* parent)
    : QWidget(parent), m_maxBatch(new QSpinBox(this)), m_maxWait(new QSpinBox(this)),
      m_maxStepTokens(new QSpinBox(this)), m_threads(new QSpinBox(this)),
      m_settingsBox(new QGroupBox(this)), m_autoTuneBox(new QGroupBox(this)),
      m_autoTune(new QPushButton(this)), m_accept(new QPushButton(this)), m_proposal(new QLabel(this)),
      m_chart(new DualAxisChart(this))
{
    buildUi();
    m_applyTimer.setSingleShot(true);
    m_applyTimer.setInterval(kApplyDelayMs);
    // Spin boxes emit on every keystroke: apply once the user pauses.
    connect(&m_applyTimer, &QTimer::timeout, this, [this] { Q_EMIT settingsChanged(settings()); });
    for (QSpinBox* box : {m_maxBatch, m_maxWait, m_maxStepTokens, m_threads}) {
        connect(box, &QSpinBox::valueChanged, this, [this] {
            if (!m_quiet)
                m_applyTimer.start();
        });
    }
    connect(m_autoTune, &QPushButton::clicked, this, &TuningPanel::startAutoTune);
    connect(m_accept, &QPushButton::clicked, this, &TuningPanel::acceptProposal);
    retranslateUi();
}

void TuningPanel::buildUi()
{
    m_maxBatch->setRange(1, 512);
    m_maxWait->setRange(0, 1000);
    m_maxStepTokens->setRange(16, 65536);
    m_maxStepTokens->setSingleStep(256);
    m_threads->setRange(0, std::max(1, QThread::idealThreadCount()) * 2);
    setSettings(EngineSettings{});

    auto* form = new QFormLayout(m_settingsBox);
    form->addRow(QStringLiteral("max_batch"), m_maxBatch);
    form->addRow(QStringLiteral("max_wait_ms"), m_maxWait);
    form->addRow(QStringLiteral("max_step_tokens"), m_maxStepTokens);
    form->addRow(QStringLiteral("threads"), m_threads);

    m_accept->setEnabled(false);
    m_proposal->setWordWrap(true);
    m_chart->setXAxis(QStringLiteral("%d"));
    // Until a sweep has run: the usual batch sizes, and empty series.
    m_chart->setXRange(0, 64);
    m_chart->setPoints({}, {});
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_autoTune);
    buttons->addWidget(m_accept);
    buttons->addStretch(1);
    auto* tuneLayout = new QVBoxLayout(m_autoTuneBox);
    tuneLayout->addLayout(buttons);
    tuneLayout->addWidget(m_proposal);
    tuneLayout->addWidget(m_chart, 1);

    auto* layout = new QHBoxLayout(this);
    auto* left = new QVBoxLayout;
    left->addWidget(m_settingsBox);
    left->addStretch(1);
    layout->addLayout(left);
    layout->addWidget(m_autoTuneBox, 1);
}

void TuningPanel::retranslateUi()
{
    m_settingsBox->setTitle(tr("Engine settings (applied live)"));
    m_autoTuneBox->setTitle(tr("Auto-tune"));
    m_maxBatch->setToolTip(tr("Sequences decoded together in one step"));
    m_maxWait->setToolTip(tr("Batching window when the engine was idle, in milliseconds"));
    m_maxStepTokens->setToolTip(tr("Prompt tokens prefilled per step, at most"));
    m_threads->setSpecialValueText(tr("all cores"));
    m_autoTune->setText(tr("Run auto-tune"));
    m_autoTune->setToolTip(tr("Measures throughput and latency for a range of batch sizes on the loaded model"));
    m_accept->setText(tr("Accept proposal"));
    m_chart->setTitles(tr("Batch size sweep"), tr("tokens/s"), tr("p95 latency ms"));
    showProposal();
}

EngineSettings TuningPanel::settings() const
{
    EngineSettings s;
    s.maxBatch = m_maxBatch->value();
    s.maxWaitMs = m_maxWait->value();
    s.maxStepTokens = m_maxStepTokens->value();
    s.threads = m_threads->value();
    return s;
}

void TuningPanel::setSettings(const EngineSettings& settings)
{
    m_quiet = true;
    m_maxBatch->setValue(settings.maxBatch);
    m_maxWait->setValue(settings.maxWaitMs);
    m_maxStepTokens->setValue(settings.maxStepTokens);
    m_threads->setValue(settings.threads);
    m_quiet = false;
}

QList<int> TuningPanel::sweepBatchSizes(int largest)
{
    QList<int> sizes;
    for (int b = 1; b <= largest; b *= 2)
        sizes << b;
    return sizes;
}

void TuningPanel::startAutoTune()
{
    m_points.clear();
    m_proposed = 0;
    m_autoTune->setEnabled(false);
    m_accept->setEnabled(false);
    m_proposal->setText(tr("Measuring…"));
    redrawSweep();
    Q_EMIT autoTuneRequested(sweepBatchSizes());
}

void TuningPanel::addAutoTunePoint(const AutoTuneResult& point)
{
    m_points << point;
    redrawSweep();
    m_proposal->setText(tr("Measured batch %1: %2 tokens/s").arg(point.batch)
                            .arg(point.tokensPerSecond, 0, 'f', 0));
}

void TuningPanel::finishAutoTune(const QString& error)
{
    m_autoTune->setEnabled(true);
    if (!error.isEmpty()) {
        m_proposal->setText(tr("Auto-tune failed: %1").arg(error));
        return;
    }
    m_proposed = proposeKnee(m_points);
    m_accept->setEnabled(m_proposed > 0);
    showProposal();
}

void TuningPanel::showProposal()
{
    if (m_proposed <= 0)
        return;
    const auto it = std::find_if(m_points.cbegin(), m_points.cend(),
                                 [this](const AutoTuneResult& p) { return p.batch == m_proposed; });
    if (it == m_points.cend())
        return;
    m_proposal->setText(tr("Proposed max_batch = %1: %2 tokens/s, p95 latency %3 ms "
                           "(the smallest batch within 5% of the best throughput).")
                            .arg(m_proposed).arg(it->tokensPerSecond, 0, 'f', 0)
                            .arg(it->p95LatencyMs, 0, 'f', 0));
}

void TuningPanel::acceptProposal()
{
    if (m_proposed <= 0)
        return;
    m_maxBatch->setValue(m_proposed);
    m_applyTimer.stop();
    m_accept->setEnabled(false);
    Q_EMIT settingsChanged(settings());
}

void TuningPanel::redrawSweep()
{
    QList<QPointF> throughput, latency;
    int largest = 1;
    for (const AutoTuneResult& p : m_points) {
        throughput << QPointF(p.batch, p.tokensPerSecond);
        latency << QPointF(p.batch, p.p95LatencyMs);
        largest = std::max(largest, p.batch);
    }
    m_chart->setXRange(0, largest);
    m_chart->setPoints(throughput, latency);
}

void TuningPanel::saveSettings(QSettings& settings) const
{
    const EngineSettings s = this->settings();
    settings.setValue(key("maxBatch"), s.maxBatch);
    settings.setValue(key("maxWaitMs"), s.maxWaitMs);
    settings.setValue(key("maxStepTokens"), s.maxStepTokens);
    settings.setValue(key("threads"), s.threads);
}

void TuningPanel::restoreSettings(const QSettings& settings)
{
    EngineSettings s;
    s.maxBatch = settings.value(key("maxBatch"), s.maxBatch).toInt();
    s.maxWaitMs = settings.value(key("maxWaitMs"), s.maxWaitMs).toInt();
    s.maxStepTokens = settings.value(key("maxStepTokens"), s.maxStepTokens).toInt();
    s.threads = settings.value(key("threads"), s.threads).toInt();
    setSettings(s);
}

void TuningPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace couplet
