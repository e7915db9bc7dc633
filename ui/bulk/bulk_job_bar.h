#pragma once

#include "bulk_progress.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace couplet {

// The running bulk job above the queue: progress, rows per second, ETA, the
// counts, and pause/resume/cancel. Hidden until a job starts.
class BulkJobBar : public QWidget {
    Q_OBJECT
public:
    explicit BulkJobBar(QWidget* parent = nullptr);

    void setStatus(quint64 jobId, const QString& input, const BulkProgress& progress, const QString& error = {});
    quint64 jobId() const { return m_jobId; }
    QString summaryText() const;
    QProgressBar* progressBar() const { return m_progress; }
    QPushButton* pauseButton() const { return m_pause; }
    QPushButton* cancelButton() const { return m_cancel; }

    static QString formatEta(double seconds);

Q_SIGNALS:
    void pauseRequested(quint64 jobId);
    void resumeRequested(quint64 jobId);
    void cancelRequested(quint64 jobId);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    QString stateText() const;

    quint64 m_jobId = 0;
    QString m_input;
    QString m_error;
    BulkProgress m_state;
    QLabel* m_title;
    QProgressBar* m_progress;
    QLabel* m_details;
    QPushButton* m_pause;
    QPushButton* m_cancel;
};

} // namespace couplet
