#include "dual_axis_chart.h"

#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <cmath>

namespace couplet {

DualAxisChart::DualAxisChart(QWidget* parent)
    : QChartView(parent), m_left(new QLineSeries), m_right(new QLineSeries),
      m_time(new QValueAxis), m_leftAxis(new QValueAxis), m_rightAxis(new QValueAxis)
{
    auto* chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->addSeries(m_left);
    chart->addSeries(m_right);
    m_left->setPen(QPen(QColor(0xc0, 0x1a, 0x1f), 2));
    m_right->setPen(QPen(QColor(0xc8, 0x93, 0x1e), 2));
    m_time->setLabelFormat(QStringLiteral("%d s"));
    m_leftAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_rightAxis->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(m_time, Qt::AlignBottom);
    chart->addAxis(m_leftAxis, Qt::AlignLeft);
    chart->addAxis(m_rightAxis, Qt::AlignRight);
    m_left->attachAxis(m_time);
    m_left->attachAxis(m_leftAxis);
    m_right->attachAxis(m_time);
    m_right->attachAxis(m_rightAxis);
    m_leftAxis->setLinePenColor(m_left->pen().color());
    m_rightAxis->setLinePenColor(m_right->pen().color());
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(260, 180);
}

void DualAxisChart::setTitles(const QString& title, const QString& left, const QString& right)
{
    chart()->setTitle(title);
    m_left->setName(left);
    m_right->setName(right);
    // A chart with one series shows no legend entry (or axis) for the unused one.
    const bool useRight = !right.isEmpty();
    m_rightAxis->setVisible(useRight);
    for (QLegendMarker* marker : chart()->legend()->markers(m_right))
        marker->setVisible(useRight);
}

double DualAxisChart::niceMax(const QList<QPointF>& points)
{
    double top = 0;
    for (const QPointF& p : points)
        top = std::max(top, p.y());
    // An empty axis still gets distinct round labels (0, 25, ... 100), not 0 0 0 1.
    if (top <= 0)
        return 100;
    const double magnitude = std::pow(10.0, std::floor(std::log10(top)));
    for (double step : {1.0, 2.0, 5.0, 10.0}) {
        if (top <= step * magnitude)
            return step * magnitude;
    }
    return 10 * magnitude;
}

void DualAxisChart::setXAxis(const QString& labelFormat) { m_time->setLabelFormat(labelFormat); }
void DualAxisChart::setXRange(double min, double max) { m_time->setRange(min, max); }

void DualAxisChart::setPoints(const QList<QPointF>& left, const QList<QPointF>& right)
{
    m_left->replace(left);
    m_right->replace(right);
    m_leftAxis->setRange(0, niceMax(left));
    m_rightAxis->setRange(0, niceMax(right));
}

} // namespace couplet
