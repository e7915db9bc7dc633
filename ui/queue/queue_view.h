#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace couplet {

class QueueModel;

// The request queue: a virtualised table with cancel actions and a summary line.
class QueueView : public QWidget {
    Q_OBJECT
public:
    explicit QueueView(QueueModel* model, QWidget* parent = nullptr);
    QTableView* table() const { return m_table; }

Q_SIGNALS:
    void cancelRequested(const QList<quint64>& ids);
    void cancelAllRequested();
    void requestActivated(quint64 id);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void cancelSelected();
    void updateSummary();

    QueueModel* m_model;
    QTableView* m_table;
    QLabel* m_summary;
    QPushButton* m_cancel;
    QPushButton* m_cancelAll;
    QPushButton* m_clear;
};

} // namespace couplet
