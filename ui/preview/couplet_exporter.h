#pragma once

#include "couplet_renderer.h"

#include <QSize>
#include <QString>

namespace couplet {

// Writes a couplet picture with CoupletRenderer. Each function returns an
// empty string on success, else a message naming the file and the problem.
class CoupletExporter {
public:
    explicit CoupletExporter(CoupletStyle style = {});

    // Pixel size of an export `heightPx` pixels high, keeping the couplet's shape.
    static QSize sizeForHeight(const CoupletText& text, int heightPx);

    QString exportPng(const QString& path, const CoupletText& text, int heightPx) const;
    QString exportSvg(const QString& path, const CoupletText& text, int heightPx) const;
    // A page sized to the couplet, `heightMm` millimetres high, at 300 dpi.
    QString exportPdf(const QString& path, const CoupletText& text, double heightMm = 280) const;

private:
    CoupletStyle m_style;
};

} // namespace couplet
