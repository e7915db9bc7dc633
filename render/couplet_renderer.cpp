#include "couplet_renderer.h"

#include <QFontDatabase>
#include <QFontInfo>
#include <QRawFont>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QRandomGenerator>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace couplet {
namespace {

// Geometry in units of one character cell.
constexpr double kColumnWidth = 1.45;
constexpr double kPaperPadding = 0.45;    // paper above the first / below the last glyph
constexpr double kGlyphStep = 1.05;        // distance between glyph centres
constexpr double kHengpiGap = 0.5;         // between 横批 and the columns
constexpr double kMargin = 0.6;            // around everything
constexpr double kMinDoorWidth = 4.2;      // between the two columns
constexpr int kMinColumnGlyphs = 5;
constexpr int kMinHengpiGlyphs = 4;
constexpr double kGlyphScale = 0.8;        // font pixel size / cell

QStringList glyphsOf(const QString& line)
{
    QStringList glyphs;
    for (char32_t c : line.toUcs4()) {
        if (!QChar::isSpace(c))
            glyphs << QString::fromUcs4(&c, 1);
    }
    return glyphs;
}

double columnHeight(int glyphs) { return glyphs * kGlyphStep + 2 * kPaperPadding; }
double hengpiWidth(int glyphs) { return glyphs * kGlyphStep + 2 * kPaperPadding; }

struct Units {
    int columnGlyphs;
    int hengpiGlyphs;
    double door;
    double width;
    double height;
};

Units unitsFor(const CoupletText& text)
{
    Units u{};
    u.columnGlyphs = std::max<int>({kMinColumnGlyphs, int(glyphsOf(text.upper).size()),
                                    int(glyphsOf(text.lower).size())});
    u.hengpiGlyphs = std::max<int>(kMinHengpiGlyphs, int(glyphsOf(text.hengpi).size()));
    u.door = std::max(kMinDoorWidth, hengpiWidth(u.hengpiGlyphs) - 2 * kColumnWidth + 1.0);
    u.width = 2 * kMargin + 2 * kColumnWidth + u.door;
    u.height = 2 * kMargin + kColumnWidth + kHengpiGap + columnHeight(u.columnGlyphs);
    return u;
}

} // namespace

struct CoupletRenderer::Layout {
    double cell = 0;
    QRectF right;   // 上联
    QRectF left;    // 下联
    QRectF top;     // 横批
    QPointF fuCentre;
};

CoupletRenderer::CoupletRenderer(CoupletStyle style) : m_style(std::move(style)) {}

double CoupletRenderer::aspectRatio(const CoupletText& text)
{
    const Units u = unitsFor(text);
    return u.width / u.height;
}

QString CoupletRenderer::brushFontFamily()
{
    static const QString family = [] {
        const QStringList families = QFontDatabase::families();
        for (const char* preferred : {"AR PL UKai CN", "AR PL UKai TW", "AR PL UKai HK"}) {
            if (families.contains(QLatin1String(preferred)))
                return QString::fromLatin1(preferred);
        }
        const QStringList chinese = QFontDatabase::families(QFontDatabase::SimplifiedChinese);
        return chinese.isEmpty() ? QFont().family() : chinese.first();
    }();
    return family;
}

CoupletRenderer::Layout CoupletRenderer::layout(const QRectF& target, const CoupletText& text) const
{
    const Units u = unitsFor(text);
    Layout l;
    l.cell = std::min(target.width() / u.width, target.height() / u.height);
    const double c = l.cell;
    const QPointF origin(target.center().x() - u.width * c / 2,
                         target.center().y() - u.height * c / 2);
    const double columnTop = origin.y() + (kMargin + kColumnWidth + kHengpiGap) * c;
    const QSizeF columnSize(kColumnWidth * c, columnHeight(u.columnGlyphs) * c);
    l.left = QRectF(QPointF(origin.x() + kMargin * c, columnTop), columnSize);
    l.right = QRectF(QPointF(origin.x() + (u.width - kMargin - kColumnWidth) * c, columnTop),
                     columnSize);
    const double topWidth = hengpiWidth(u.hengpiGlyphs) * c;
    l.top = QRectF(target.center().x() - topWidth / 2, origin.y() + kMargin * c, topWidth,
                   kColumnWidth * c);
    l.fuCentre = QPointF(target.center().x(), columnTop + columnSize.height() * 0.38);
    return l;
}

QString CoupletRenderer::missingGlyphs(const CoupletText& text, const QString& family)
{
    // The font itself, not Qt's fallbacks for it (QFontMetrics::inFontUcs4 counts those).
    QFont font(family);
    font.setStyleStrategy(QFont::NoFontMerging);
    const QRawFont raw = QRawFont::fromFont(font);
    QString missing;
    for (const QString& line : {text.upper, text.lower, text.hengpi, QStringLiteral("福")})
        for (char32_t c : line.toUcs4())
            if (!QChar::isSpace(c) && !raw.supportsCharacter(c)) missing += QString::fromUcs4(&c, 1);
    return missing;
}

QString CoupletRenderer::familyWithGlyphs(const CoupletText& text, const QString& preferred)
{
    if (missingGlyphs(text, preferred).isEmpty())
        return preferred;
    QStringList candidates = QFontDatabase::families(QFontDatabase::TraditionalChinese);
    candidates += QFontDatabase::families(QFontDatabase::SimplifiedChinese);
    for (const QString& family : candidates) {
        if (missingGlyphs(text, family).isEmpty())
            return family;
    }
    return preferred;
}

void CoupletRenderer::paint(QPainter& painter, const QRectF& target, const CoupletText& text) const
{
    const QString preferred = m_style.fontFamily.isEmpty() ? brushFontFamily() : m_style.fontFamily;
    if (const QString family = familyWithGlyphs(text, preferred); family != preferred) {
        CoupletStyle style = m_style;
        style.fontFamily = family;
        CoupletRenderer(style).paint(painter, target, text);
        return;
    }
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    paintBackground(painter, target);
    const Layout l = layout(target, text);
    paintPaper(painter, l.right);
    paintPaper(painter, l.left);
    paintColumn(painter, l.right, text.upper, l.cell);
    paintColumn(painter, l.left, text.lower, l.cell);
    if (m_style.showHengpi) {
        paintPaper(painter, l.top);
        paintRow(painter, l.top, text.hengpi, l.cell);
    }
    if (m_style.showFuDiamond)
        paintFuDiamond(painter, l.fuCentre, l.cell * 2.2);
    painter.restore();
}

void CoupletRenderer::paintBackground(QPainter& painter, const QRectF& target) const
{
    // A lacquered wooden door, so the red paper reads as hung on something.
    QLinearGradient wood(target.topLeft(), target.topRight());
    wood.setColorAt(0.0, QColor(0x4a, 0x2c, 0x22));
    wood.setColorAt(0.5, QColor(0x5e, 0x3a, 0x2c));
    wood.setColorAt(1.0, QColor(0x4a, 0x2c, 0x22));
    painter.fillRect(target, wood);
    painter.setPen(QPen(QColor(0, 0, 0, 60), std::max(1.0, target.width() / 300)));
    painter.drawLine(QPointF(target.center().x(), target.top()),
                     QPointF(target.center().x(), target.bottom()));
}

void CoupletRenderer::paintPaper(QPainter& painter, const QRectF& paper) const
{
    QLinearGradient red(paper.topLeft(), paper.bottomRight());
    red.setColorAt(0.0, QColor(0xd4, 0x1a, 0x1f));
    red.setColorAt(0.6, QColor(0xc0, 0x12, 0x19));
    red.setColorAt(1.0, QColor(0xa8, 0x0e, 0x14));
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0, 0, 0, 70));
    const double shadow = std::max(1.0, paper.width() * 0.04);
    painter.drawRect(paper.translated(shadow, shadow));
    painter.setBrush(red);
    painter.drawRect(paper);
    // The short side: the 横批 gets fibres and a border as fine as the lines'.
    const double unit = std::min(paper.width(), paper.height());
    paintPaperSurface(painter, paper, unit);
    paintBorder(painter, paper, unit);
}

// Paper fibres over `paper`, `unit` long (the paper's short side) apiece;
// a fixed seed so every repaint and every export look the same.
void CoupletRenderer::paintPaperSurface(QPainter& painter, const QRectF& paper, double unit) const
{
    painter.save();
    painter.setClipRect(paper, Qt::IntersectClip);   // no fibre sticks out past the edge
    QRandomGenerator fibres(0x5eed);
    const int count = int(paper.width() * paper.height() / (unit * unit) * 40);
    for (int i = 0; i < count; ++i) {
        const QPointF p(paper.left() + fibres.generateDouble() * paper.width(),
                        paper.top() + fibres.generateDouble() * paper.height());
        const double len = unit * (0.05 + 0.1 * fibres.generateDouble());
        painter.setPen(QPen(QColor(255, 210, 160, 18 + fibres.bounded(18)), unit * 0.012));
        painter.drawLine(p, p + QPointF(len, len * (fibres.generateDouble() - 0.5)));
    }
    painter.restore();
}

void CoupletRenderer::paintBorder(QPainter& painter, const QRectF& paper, double unit) const
{
    const double inset = unit * 0.07;
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor(0xe8, 0xb8, 0x4a, 200), unit * 0.018));
    painter.drawRect(paper.adjusted(inset, inset, -inset, -inset));
}

void CoupletRenderer::paintPrintStrip(QPainter& painter, const QRectF& page, const QRectF& trim,
                                      const QString& line, Qt::Orientation orientation) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const bool vertical = orientation == Qt::Vertical;
    const double unit = vertical ? trim.width() : trim.height();
    // The paper runs into the bleed, so a cut a little off the trim shows no white.
    QLinearGradient red(page.topLeft(), page.bottomRight());
    red.setColorAt(0.0, QColor(0xd4, 0x1a, 0x1f));
    red.setColorAt(1.0, QColor(0xb4, 0x10, 0x16));
    painter.fillRect(page, red);
    paintPaperSurface(painter, page, unit);
    paintBorder(painter, trim, unit);
    QStringList glyphs = glyphsOf(line);
    if (!vertical && m_style.hengpiRightToLeft)
        std::reverse(glyphs.begin(), glyphs.end());
    if (!glyphs.isEmpty()) {
        // Glyphs spread evenly along the strip within a margin of a fifth of
        // its width, each at most as large as the strip is wide.
        const double length = (vertical ? trim.height() : trim.width()) - 0.4 * unit;
        const double step = length / glyphs.size();
        const double cell = std::min(step, unit * 0.86);
        for (int i = 0; i < glyphs.size(); ++i) {
            const double along = 0.2 * unit + step * (i + 0.5);
            const QPointF centre = vertical ? QPointF(trim.center().x(), trim.top() + along)
                                            : QPointF(trim.left() + along, trim.center().y());
            paintGlyph(painter, QRectF(centre.x() - cell / 2, centre.y() - cell / 2, cell, cell), glyphs[i]);
        }
    }
    painter.restore();
}

void CoupletRenderer::paintPrintFu(QPainter& painter, const QRectF& page, const QRectF& trim) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const double side = std::min(trim.width(), trim.height());
    QLinearGradient red(page.topLeft(), page.bottomRight());
    red.setColorAt(0.0, QColor(0xd4, 0x1a, 0x1f));
    red.setColorAt(1.0, QColor(0xb4, 0x10, 0x16));
    painter.fillRect(page, red);
    paintPaperSurface(painter, page, side / 2);
    paintBorder(painter, trim, side / 2);
    painter.translate(trim.center());
    painter.rotate(45);
    // The largest upright square inside the diamond the sheet makes on the wall.
    // (A glyph's ink stays well inside its em square, so 1.1 of it still fits.)
    const double glyph = side / std::sqrt(2.0) * 1.1;
    paintGlyph(painter, QRectF(-glyph / 2, -glyph / 2, glyph, glyph), QStringLiteral("福"));
    painter.restore();
}

void CoupletRenderer::paintColumn(QPainter& painter, const QRectF& paper, const QString& line,
                                  double cell) const
{
    const QStringList glyphs = glyphsOf(line);
    double y = paper.top() + kPaperPadding * cell;
    for (const QString& g : glyphs) {
        paintGlyph(painter, QRectF(paper.left(), y, paper.width(), kGlyphStep * cell), g);
        y += kGlyphStep * cell;
    }
}

void CoupletRenderer::paintRow(QPainter& painter, const QRectF& paper, const QString& line,
                               double cell) const
{
    QStringList glyphs = glyphsOf(line);
    if (m_style.hengpiRightToLeft)
        std::reverse(glyphs.begin(), glyphs.end());
    const double used = glyphs.size() * kGlyphStep * cell;
    double x = paper.center().x() - used / 2;
    for (const QString& g : glyphs) {
        paintGlyph(painter, QRectF(x, paper.top(), kGlyphStep * cell, paper.height()), g);
        x += kGlyphStep * cell;
    }
}

void CoupletRenderer::paintFuDiamond(QPainter& painter, const QPointF& centre, double size) const
{
    painter.save();
    painter.translate(centre);
    painter.rotate(45);
    const QRectF square(-size / 2, -size / 2, size, size);
    paintPaper(painter, square);
    painter.rotate(-45);
    paintGlyph(painter, QRectF(-size / 2, -size / 2, size, size).adjusted(
                            size * 0.1, size * 0.1, -size * 0.1, -size * 0.1),
               QStringLiteral("福"));
    painter.restore();
}

QFont CoupletRenderer::glyphFont(double cellSize) const
{
    QFont font(m_style.fontFamily.isEmpty() ? brushFontFamily() : m_style.fontFamily);
    font.setPixelSize(std::max(1, int(cellSize * kGlyphScale)));
    font.setStyleStrategy(QFont::PreferAntialias);
    return font;
}

QColor CoupletRenderer::inkColor() const
{
    return m_style.ink == InkColor::Gold ? QColor(0xf6, 0xcf, 0x57) : QColor(0x15, 0x10, 0x10);
}

void CoupletRenderer::paintGlyph(QPainter& painter, const QRectF& cell, const QString& glyph) const
{
    painter.setFont(glyphFont(std::min(cell.width(), cell.height())));
    if (m_style.ink == InkColor::Gold) {
        const double offset = std::max(0.5, cell.width() * 0.02);
        painter.setPen(QColor(0x5a, 0x08, 0x08, 150));
        painter.drawText(cell.translated(offset, offset), Qt::AlignCenter, glyph);
    }
    painter.setPen(inkColor());
    painter.drawText(cell, Qt::AlignCenter, glyph);
}

} // namespace couplet
