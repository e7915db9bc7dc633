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
