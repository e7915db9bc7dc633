#include "couplet_exporter.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <cmath>

namespace couplet {
namespace {

constexpr int kPdfDpi = 300;
constexpr double kMmPerInch = 25.4;

QString writeError(const QString& path)
{
    return QCoreApplication::translate("couplet::CoupletExporter",
                                       "Cannot write %1: check that the folder exists and is writable.")
        .arg(path);
}

} // namespace

CoupletExporter::CoupletExporter(CoupletStyle style) : m_style(std::move(style)) {}

QSize CoupletExporter::sizeForHeight(const CoupletText& text, int heightPx)
{
    const int width = int(std::lround(heightPx * CoupletRenderer::aspectRatio(text)));
    return {std::max(1, width), std::max(1, heightPx)};
}

QString CoupletExporter::exportPng(const QString& path, const CoupletText& text, int heightPx) const
{
    QImage image(sizeForHeight(text, heightPx), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter painter(&image);
        CoupletRenderer(m_style).paint(painter, QRectF(QPointF(0, 0), image.size()), text);
    }
    return image.save(path, "PNG") ? QString() : writeError(path);
}

QString CoupletExporter::exportSvg(const QString& path, const CoupletText& text, int heightPx) const
{
    const QSize size = sizeForHeight(text, heightPx);
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(text.hengpi.isEmpty() ? QStringLiteral("春联") : text.hengpi);
    svg.setDescription(text.upper + QLatin1Char('\n') + text.lower);
    QPainter painter;
    if (!painter.begin(&svg))
        return writeError(path);
    CoupletRenderer(m_style).paint(painter, QRectF(QPointF(0, 0), size), text);
    painter.end();
    return QFileInfo(path).size() > 0 ? QString() : writeError(path);
}

QString CoupletExporter::exportPdf(const QString& path, const CoupletText& text, double heightMm) const
{
    const double widthMm = heightMm * CoupletRenderer::aspectRatio(text);
    QPdfWriter pdf(path);
    pdf.setResolution(kPdfDpi);
    pdf.setPageSize(QPageSize(QSizeF(widthMm, heightMm), QPageSize::Millimeter));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setTitle(text.hengpi.isEmpty() ? QStringLiteral("春联") : text.hengpi);
    QPainter painter;
    if (!painter.begin(&pdf))
        return writeError(path);
    const QSizeF pixels(widthMm / kMmPerInch * kPdfDpi, heightMm / kMmPerInch * kPdfDpi);
    CoupletRenderer(m_style).paint(painter, QRectF(QPointF(0, 0), pixels), text);
    painter.end();
    return QFileInfo(path).size() > 0 ? QString() : writeError(path);
}

} // namespace couplet
