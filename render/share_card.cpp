#include "share_card.h"

#include "couplet_renderer.h"

#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>

namespace couplet {

QImage renderShareCard(const CoupletText& text, const CoupletStyle& style)
{
    QImage image(kShareCardSize, QImage::Format_RGB32);
    image.fill(Qt::black);
    QPainter painter(&image);
    CoupletRenderer(style).paint(painter, QRectF(QPointF(0, 0), QSizeF(kShareCardSize)), text);
    return image;
}

QString writeShareCard(const QString& path, const CoupletText& text, const CoupletStyle& style)
{
    if (QFileInfo(path).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) != 0) {
        if (!renderShareCard(text, style).save(path, "PNG"))
            return QStringLiteral("cannot write %1").arg(path);
        return {};
    }
    // The PDF page has the card's proportions (108 x 192 mm); text stays vector.
    QPdfWriter pdf(path);
    pdf.setPageSize(QPageSize(QSizeF(108, 192), QPageSize::Millimeter));
    pdf.setPageMargins(QMarginsF());
    pdf.setResolution(300);
    QPainter painter;
    if (!painter.begin(&pdf))
        return QStringLiteral("cannot write %1").arg(path);
    CoupletRenderer(style).paint(painter, QRectF(QPointF(0, 0), QSizeF(pdf.width(), pdf.height())), text);
    painter.end();
    return {};
}

} // namespace couplet
