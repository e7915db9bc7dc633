#include "charts_panel.h"

#include "dual_axis_chart.h"

#include <QEvent>
#include <QGridLayout>

#include <algorithm>

namespace couplet {

ChartsPanel::ChartsPanel(QWidget* parent)
    : QWidget(parent), m_samples(kWindowSeconds * 2), m_device(new DualAxisChart(this)),
      m_throughput(new DualAxisChart(this)), m_batch(new DualAxisChart(this)),
      m_latency(new DualAxisChart(this))
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(2, 2, 2, 2);
    grid->addWidget(m_device, 0, 0);
    grid->addWidget(m_throughput, 0, 1);
    grid->addWidget(m_batch, 1, 0);
    grid->addWidget(m_latency, 1, 1);
    connect(&m_redrawTimer, &QTimer::timeout, this, &ChartsPanel::redraw);
    m_redrawTimer.start(kRedrawIntervalMs);
    retranslateUi();
}

void ChartsPanel::addSample(const MetricsSample& sample)
{
    const bool deviceChanged = !m_samples.empty() && m_samples.back().stats.machine.gpu != sample.stats.machine.gpu;
    m_samples.push(sample);
    m_dirty = true;
    if (deviceChanged || m_samples.size() == 1)
        retranslateUi();
}

void ChartsPanel::redraw()
{
    if (!m_dirty)
        return;
    m_dirty = false;
    QList<QPointF> util, memory, tokens, couplets, occupancy, depth, p95, none;
    const double end = m_samples.back().timeS;
    for (std::size_t i = 0; i < m_samples.size(); ++i) {
        const MetricsSample& s = m_samples.at(i);
        if (s.timeS < end - kWindowSeconds)
            continue;
        const ThroughputSnapshot& t = s.stats.throughput;
        util << QPointF(s.timeS, s.stats.deviceUtilPercent());
        memory << QPointF(s.timeS, s.stats.deviceMemoryMiB());
        tokens << QPointF(s.timeS, t.tokensPerSecond);
        couplets << QPointF(s.timeS, t.coupletsPerSecond);
        occupancy << QPointF(s.timeS, 100 * t.batchOccupancy);
        depth << QPointF(s.timeS, t.queueDepth);
        p95 << QPointF(s.timeS, t.latencyP95Ms);
    }
    const double start = std::max(0.0, end - kWindowSeconds);
    for (DualAxisChart* chart : {m_device, m_throughput, m_batch, m_latency})
        chart->setXRange(start, std::max(end, start + 10));
    m_device->setPoints(util, memory);
    m_throughput->setPoints(tokens, couplets);
    m_batch->setPoints(occupancy, depth);
    m_latency->setPoints(p95, none);
}

void ChartsPanel::retranslateUi()
{
    const bool gpu = !m_samples.empty() && m_samples.back().stats.machine.gpu;
    if (gpu)
        m_device->setTitles(tr("GPU"), tr("utilisation %"), tr("memory MiB"));
    else
        m_device->setTitles(tr("CPU (no GPU)"), tr("CPU %"), tr("process RAM MiB"));
    m_throughput->setTitles(tr("Throughput"), tr("tokens/s"), tr("couplets/s"));
    m_batch->setTitles(tr("Batch"), tr("occupancy %"), tr("queue depth"));
    m_latency->setTitles(tr("Latency"), tr("p95 ms"), QString());
}

void ChartsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace couplet
