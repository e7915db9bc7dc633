#pragma once

#include "couplet_style.h"
#include "couplet_text.h"

#include <QList>
#include <QSizeF>
#include <QString>

#include <optional>

namespace couplet {

// A print-ready PDF of one couplet at a size shops sell, for a print shop to
// print at 1:1 and cut: one page per piece, in the order 上联, 下联, 横批, 福
// (横批 and 福 when asked for). Each page is the piece's trim size plus
// kBleedMm on every side; the red paper runs to the page's edge and the
// border and glyphs stay within the trim. The writer works at 300 dpi; paper,
// border and glyphs are vector (the glyphs are the font's outlines), so
// nothing is rasterised.
inline constexpr double kBleedMm = 3.0;
inline constexpr int kPrintDpi = 300;

// The couplet lines' trim size, height x width in cm: 130x23, 160x28, 180x33, 200x36.
struct PrintSize {
    int lineHeightCm = 130;
    int lineWidthCm = 23;
    bool operator==(const PrintSize&) const = default;
};

QList<PrintSize> printSizes();
// "130x23" (also 130X23, 130×23) -> the size; empty when it is not one of printSizes().
std::optional<PrintSize> parsePrintSize(const QString& text);
QString printSizeName(const PrintSize& size);   // "130x23"

enum class PrintPiece { Upper, Lower, Hengpi, Fu };

struct PrintPage {
    PrintPiece piece;
    QSizeF trimMm;   // width x height of the cut piece
    QSizeF pageMm() const { return trimMm + QSizeF(2 * kBleedMm, 2 * kBleedMm); }
};

// The pages for `text` at `size`. The lines are the size itself; the 横批 is
// as tall as a line is wide and 0.9 line widths long per character plus
// 0.9 for its ends (4 characters on 130x23: 103.5 x 23 cm); the 福 square's
// side is twice a line's width (46 cm on 130x23).
QList<PrintPage> printPages(const PrintSize& size, const CoupletText& text, bool hengpi, bool fu);

// Writes the PDF; returns "" or what went wrong, naming the file.
QString writePrintPoster(const QString& path, const CoupletText& text, const PrintSize& size,
                         const CoupletStyle& style = {});

} // namespace couplet
