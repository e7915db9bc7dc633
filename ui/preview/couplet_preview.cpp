#include "couplet_preview.h"

#include <QPainter>

namespace couplet {

CoupletPreview::CoupletPreview(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void CoupletPreview::setCouplet(const CoupletText& text)
{
    if (text == m_text)
        return;
    m_text = text;
    update();
}

void CoupletPreview::setCoupletStyle(const CoupletStyle& style)
{
    m_style = style;
    update();
}

QSize CoupletPreview::sizeHint() const { return {420, 520}; }
QSize CoupletPreview::minimumSizeHint() const { return {200, 240}; }

void CoupletPreview::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    CoupletRenderer(m_style).paint(painter, rect(), m_text);
}

} // namespace couplet
