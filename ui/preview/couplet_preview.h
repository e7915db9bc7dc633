#pragma once

#include "couplet_renderer.h"

#include <QWidget>

namespace couplet {

// Shows one couplet as it would hang on a door; repaints when the text or
// the style changes (streamed characters included).
class CoupletPreview : public QWidget {
    Q_OBJECT
public:
    explicit CoupletPreview(QWidget* parent = nullptr);

    void setCouplet(const CoupletText& text);
    const CoupletText& couplet() const { return m_text; }
    void setCoupletStyle(const CoupletStyle& style);
    const CoupletStyle& coupletStyle() const { return m_style; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    CoupletText m_text;
    CoupletStyle m_style;
};

} // namespace couplet
