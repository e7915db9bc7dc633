#pragma once

#include "couplet_style.h"
#include "couplet_text.h"

#include <QFont>
#include <QRectF>
#include <QSizeF>

class QPainter;

namespace couplet {

// Paints a couplet as it hangs on a door: 上联 in a vertical column on the
// right, 下联 on the left, 横批 across the top, on scarlet paper in a brush
// font. Shared by the preview widget and the PNG/SVG/PDF exporters so that
// what is exported is exactly what is shown.
class CoupletRenderer {
public:
    explicit CoupletRenderer(CoupletStyle style = {});

    void paint(QPainter& painter, const QRectF& target, const CoupletText& text) const;
    // One piece of a print (print_poster.h), in the device's units: the
    // paper fills `page` (the trim plus the bleed), the border and the glyphs
    // sit within `trim`. A strip holds `line` top to bottom (a couplet line)
    // or across (横批, in hengpiRightToLeft order).
    void paintPrintStrip(QPainter& painter, const QRectF& page, const QRectF& trim, const QString& line,
                         Qt::Orientation orientation) const;
    // The 福 square (斗方), hung on a corner: 福 is drawn turned 45 degrees
    // so that it stands upright on the wall.
    void paintPrintFu(QPainter& painter, const QRectF& page, const QRectF& trim) const;
    // Width / height of the area the couplet needs, for export sizes.
    static double aspectRatio(const CoupletText& text);
    // "AR PL UKai CN" when installed, else any font that writes Simplified
    // Chinese, else the application font.
    static QString brushFontFamily();
    // `preferred` when it has a glyph for every character of `text`, else the
    // first Chinese font (Traditional first) that has them all, else
    // `preferred`: a Traditional 髮 or 裏 is not drawn as an empty box.
    static QString familyWithGlyphs(const CoupletText& text, const QString& preferred);
    // The characters of `text` that `family` has no glyph for.
    static QString missingGlyphs(const CoupletText& text, const QString& family);

private:
    struct Layout;
    Layout layout(const QRectF& target, const CoupletText& text) const;
    void paintBackground(QPainter& painter, const QRectF& target) const;
    void paintPaper(QPainter& painter, const QRectF& paper) const;
    void paintPaperSurface(QPainter& painter, const QRectF& paper, double unit) const;
    void paintBorder(QPainter& painter, const QRectF& paper, double unit) const;
    void paintColumn(QPainter& painter, const QRectF& paper, const QString& line,
                     double cell) const;
    void paintRow(QPainter& painter, const QRectF& paper, const QString& line,
                  double cell) const;
    void paintFuDiamond(QPainter& painter, const QPointF& centre, double size) const;
    void paintGlyph(QPainter& painter, const QRectF& cell, const QString& glyph) const;
    QFont glyphFont(double cellSize) const;
    QColor inkColor() const;

    CoupletStyle m_style;
};

} // namespace couplet
