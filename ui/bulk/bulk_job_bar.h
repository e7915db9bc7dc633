#pragma once

#include "bulk_poster_sink.h"
#include "bulk_progress.h"
#include "cluster_job_view.h"

#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace couplet {

// The running bulk job above the queue: progress, rows per second, ETA, the
// counts, and pause/resume/cancel. Hidden until a job starts. A job on
// workers also shows what `couplet cluster status` says of it: the live
// workers, rows queued and pending, dead letters, and rows and rows/s per
// worker. A job that draws posters shows how many of its ok rows have one
// ("Posters: 120 of 500"). Errors (a failed job, Redis out of reach, a row
// whose characters no font has) show in red.
class BulkJobBar : public QWidget {
    Q_OBJECT
public:
    explicit BulkJobBar(QWidget* parent = nullptr);

    void setStatus(quint64 jobId, const QString& input, const BulkProgress& progress, const QString& error = {});
    // For a job on workers, about once a second.
    void setClusterStatus(const ClusterJobView& view);
    // For a job with posters, with each status.
    void setPosterStatus(const BulkPosterProgress& posters);
    quint64 jobId() const { return m_jobId; }
    QString summaryText() const;
    QString clusterText() const;
    QString posterText() const;
    QString problemText() const;
    QString errorText() const { return m_error; }
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
    void showLabels();

    quint64 m_jobId = 0;
    QString m_input;
    QString m_error;
    BulkProgress m_state;
    ClusterJobView m_cluster;
    std::optional<BulkPosterProgress> m_posters;
    QLabel* m_title;
    QProgressBar* m_progress;
    QLabel* m_details;
    QLabel* m_workers;
    QLabel* m_postersLabel;
    QLabel* m_problem;
    QPushButton* m_pause;
    QPushButton* m_cancel;
};

} // namespace couplet
