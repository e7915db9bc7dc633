#pragma once

#include <QColor>
#include <QString>

namespace couplet {

enum class InkColor { Gold, Black };

struct CoupletStyle {
    InkColor ink = InkColor::Gold;
    // Traditional order reads the 横批 from right to left, matching the 上联 on
    // the right; modern print usually reads it from left to right.
    bool hengpiRightToLeft = true;
    bool showFuDiamond = true;
    bool showHengpi = true;      // false: no 横批 paper at all (the text's 横批 is ignored)
    QString fontFamily;          // empty = CoupletRenderer::brushFontFamily()
};

} // namespace couplet
