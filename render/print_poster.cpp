#include "print_poster.h"

#include "couplet_renderer.h"

#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>

namespace couplet {
namespace {

constexpr double kHengpiCellPerWidth = 0.9;   // 横批 length per character, in line widths
constexpr double kHengpiEnds = 0.9;           // both ends together, in line widths
constexpr double kFuPerWidth = 2.0;           // 福 square side, in line widths

int glyphCount(const QString& line)
{
    int n = 0;
    for (char32_t c : line.toUcs4()) n += !QChar::isSpace(c);
    return n;
}

QPageLayout pageLayout(const PrintPage& page)
{
    // ExactMatch: a custom size must not snap to a nearby standard one.
    const QPageSize size(page.pageMm(), QPageSize::Millimeter, QString(), QPageSize::ExactMatch);
    return QPageLayout(size, QPageLayout::Portrait, QMarginsF(), QPageLayout::Millimeter);
}

} // namespace

QList<PrintSize> printSizes()
{
    return {{130, 23}, {160, 28}, {180, 33}, {200, 36}};
}

std::optional<PrintSize> parsePrintSize(const QString& text)
{
    QString t = text.trimmed().toLower();
    t.replace(QChar(0xd7), QLatin1Char('x'));
    for (const PrintSize& size : printSizes())
        if (t == printSizeName(size)) return size;
    return std::nullopt;
}

QString printSizeName(const PrintSize& size)
{
    return QStringLiteral("%1x%2").arg(size.lineHeightCm).arg(size.lineWidthCm);
}

QList<PrintPage> printPages(const PrintSize& size, const CoupletText& text, bool hengpi, bool fu)
{
    const double width = size.lineWidthCm * 10.0, height = size.lineHeightCm * 10.0;
    QList<PrintPage> pages{{PrintPiece::Upper, QSizeF(width, height)}, {PrintPiece::Lower, QSizeF(width, height)}};
    if (hengpi) {
        const int chars = std::max(4, glyphCount(text.hengpi));
        const double length = width * (kHengpiCellPerWidth * chars + kHengpiEnds);
        pages.append({PrintPiece::Hengpi, QSizeF(length, width)});
    }
    if (fu) pages.append({PrintPiece::Fu, QSizeF(width * kFuPerWidth, width * kFuPerWidth)});
    return pages;
}

QString writePrintPoster(const QString& path, const CoupletText& text, const PrintSize& size,
                         const CoupletStyle& style)
{
    const QList<PrintPage> pages = printPages(size, text, style.showHengpi, style.showFuDiamond);
    QPdfWriter pdf(path);
    pdf.setCreator(QStringLiteral("Couplet Studio"));
    pdf.setTitle(text.upper + QLatin1Char(' ') + text.lower);
    pdf.setResolution(kPrintDpi);
    pdf.setPageLayout(pageLayout(pages.first()));
    QPainter painter;
    if (!painter.begin(&pdf)) return QStringLiteral("cannot write %1").arg(path);
    const CoupletRenderer renderer(style);
    const double pxPerMm = kPrintDpi / 25.4;
    for (int i = 0; i < pages.size(); ++i) {
        const PrintPage& page = pages[i];
        if (i > 0) {
            // The next page takes the layout set before newPage().
            pdf.setPageLayout(pageLayout(page));
            if (!pdf.newPage()) return QStringLiteral("cannot write %1").arg(path);
        }
        const QRectF full(QPointF(0, 0), page.pageMm() * pxPerMm);
        const QRectF trim = full.adjusted(kBleedMm * pxPerMm, kBleedMm * pxPerMm, -kBleedMm * pxPerMm,
                                          -kBleedMm * pxPerMm);
        switch (page.piece) {
        case PrintPiece::Upper: renderer.paintPrintStrip(painter, full, trim, text.upper, Qt::Vertical); break;
        case PrintPiece::Lower: renderer.paintPrintStrip(painter, full, trim, text.lower, Qt::Vertical); break;
        case PrintPiece::Hengpi: renderer.paintPrintStrip(painter, full, trim, text.hengpi, Qt::Horizontal); break;
        case PrintPiece::Fu: renderer.paintPrintFu(painter, full, trim); break;
        }
    }
    if (!painter.end()) return QStringLiteral("cannot write %1").arg(path);
    return {};
}

} // namespace couplet
