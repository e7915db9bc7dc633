#pragma once

#include <QList>
#include <QPointF>
#include <QtCharts/QChartView>

class QLineSeries;
class QValueAxis;

namespace couplet {

// A chart of two series over time, each on its own y axis (left and right).
class DualAxisChart : public QChartView {
    Q_OBJECT
public:
    explicit DualAxisChart(QWidget* parent = nullptr);

    void setTitles(const QString& title, const QString& left, const QString& right);
    void setXAxis(const QString& labelFormat);
    void setXRange(double min, double max);
    // Replaces all points at once (one repaint) and fits the y axes.
    void setPoints(const QList<QPointF>& left, const QList<QPointF>& right);

private:
    static double niceMax(const QList<QPointF>& points);

    QLineSeries* m_left;
    QLineSeries* m_right;
    QValueAxis* m_time;
    QValueAxis* m_leftAxis;
    QValueAxis* m_rightAxis;
};

} // namespace couplet
