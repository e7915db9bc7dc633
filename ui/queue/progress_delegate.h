#pragma once

#include <QStyledItemDelegate>

namespace couplet {

// Paints an integer percentage as a progress bar: no widget per row, so the
// queue stays cheap with thousands of requests.
class ProgressDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

} // namespace couplet
