#pragma once

#include <QString>

namespace couplet {

// The three lines of a couplet as the widgets show them.
struct CoupletText {
    QString upper;   // 上联, hung on the right
    QString lower;   // 下联, hung on the left
    QString hengpi;  // 横批, across the top

    bool isEmpty() const { return upper.isEmpty() && lower.isEmpty() && hengpi.isEmpty(); }
    bool operator==(const CoupletText&) const = default;
};

} // namespace couplet
