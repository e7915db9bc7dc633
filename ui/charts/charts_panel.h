#pragma once

#include "metrics_sample.h"
#include "ring_buffer.h"

#include <QTimer>
#include <QWidget>

namespace couplet {

class DualAxisChart;

// Live engine metrics for the last few minutes. Samples go into a ring buffer;
// the charts are redrawn once a second with QXYSeries::replace.
class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kWindowSeconds = 180;
    static constexpr int kRedrawIntervalMs = 1000;

    explicit ChartsPanel(QWidget* parent = nullptr);

    const RingBuffer<MetricsSample>& samples() const { return m_samples; }

public Q_SLOTS:
    void addSample(const couplet::MetricsSample& sample);
    void redraw();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();

    RingBuffer<MetricsSample> m_samples;
    DualAxisChart* m_device;
    DualAxisChart* m_throughput;
    DualAxisChart* m_batch;
    DualAxisChart* m_latency;
    QTimer m_redrawTimer;
    bool m_dirty = false;
};

} // namespace couplet
