#pragma once

#include "history_entry.h"

#include <QTimer>
#include <QWidget>

class QCheckBox;
class QLineEdit;
class QPushButton;
class QTableView;

namespace couplet {

class HistoryModel;

// Search, star, reopen and delete stored couplets.
class HistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit HistoryPanel(HistoryModel* model, QWidget* parent = nullptr);
    QTableView* table() const { return m_table; }

Q_SIGNALS:
    void openRequested(const couplet::HistoryEntry& entry);
    void errorOccurred(const QString& message);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    QList<int> selectedRows() const;
    void toggleStar();
    void openSelected();
    void deleteSelected();

    HistoryModel* m_model;
    QLineEdit* m_search;
    QCheckBox* m_starredOnly;
    QTableView* m_table;
    QPushButton* m_star;
    QPushButton* m_open;
    QPushButton* m_delete;
    QTimer m_searchTimer;
};

} // namespace couplet
