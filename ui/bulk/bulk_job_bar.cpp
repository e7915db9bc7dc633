#include "bulk_job_bar.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace couplet {

BulkJobBar::BulkJobBar(QWidget* parent)
    : QWidget(parent), m_title(new QLabel), m_progress(new QProgressBar), m_details(new QLabel),
      m_workers(new QLabel), m_postersLabel(new QLabel), m_problem(new QLabel), m_pause(new QPushButton), m_cancel(new QPushButton)
{
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    auto* top = new QHBoxLayout;
    top->addWidget(m_title);
    top->addWidget(m_progress, 1);
    top->addWidget(m_pause);
    top->addWidget(m_cancel);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 4);
    layout->addLayout(top);
    layout->addWidget(m_details);
    layout->addWidget(m_workers);
    layout->addWidget(m_postersLabel);
    layout->addWidget(m_problem);
    m_workers->setWordWrap(true);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("QLabel { color: #a00000; }"));
    connect(m_pause, &QPushButton::clicked, this, [this] {
        if (m_state.state == BulkState::Paused)
            Q_EMIT resumeRequested(m_jobId);
        else
            Q_EMIT pauseRequested(m_jobId);
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] { Q_EMIT cancelRequested(m_jobId); });
    retranslateUi();
    hide();
}

QString BulkJobBar::formatEta(double seconds)
{
    if (seconds < 0)
        return QStringLiteral("–");
    const qint64 s = qint64(seconds + 0.5);
    if (s >= 3600)
        return QStringLiteral("%1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, QLatin1Char('0')).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

void BulkJobBar::setStatus(quint64 jobId, const QString& input, const BulkProgress& progress, const QString& error)
{
    if (jobId != m_jobId) {
        m_cluster = {};
        m_posters.reset();
    }
    m_jobId = jobId;
    m_input = input;
    m_state = progress;
    m_error = error;
    const double fraction = progress.total > 0 ? double(progress.done()) / double(progress.total) : 0;
    m_progress->setValue(int(1000 * fraction));
    m_progress->setFormat(QStringLiteral("%1 / %2").arg(progress.done()).arg(progress.total));
    retranslateUi();
    show();
}

QString BulkJobBar::stateText() const
{
    switch (m_state.state) {
    case BulkState::Idle: return tr("starting");
    case BulkState::Running: return tr("running");
    case BulkState::Paused: return tr("paused");
    case BulkState::Finished: return tr("finished");
    case BulkState::Cancelled: return tr("cancelled (resumable)");
    case BulkState::Failed: return tr("failed");
    }
    return {};
}

QString BulkJobBar::summaryText() const
{
    const BulkProgress& p = m_state;
    return tr("%1 rows/s · ETA %2 · %3 ok, %4 invalid, %5 failed · %6 in flight")
        .arg(p.rowsPerSecond, 0, 'f', 1)
        .arg(formatEta(p.etaSeconds))
        .arg(p.ok).arg(p.invalid).arg(p.failed).arg(p.inFlight);
}

void BulkJobBar::setClusterStatus(const ClusterJobView& view)
{
    if (view.jobId != m_jobId)
        return;
    // A view that only says Redis is out of reach keeps the last figures.
    const QString problem = view.problem;
    if (problem.isEmpty())
        m_cluster = view;
    m_cluster.problem = problem;
    showLabels();
}

void BulkJobBar::setPosterStatus(const BulkPosterProgress& posters)
{
    m_posters = posters;
    showLabels();
}

QString BulkJobBar::posterText() const
{
    if (!m_posters)
        return {};
    const BulkPosterProgress& p = *m_posters;
    QString text = tr("Posters: %1 of %2 · %3 posters/s").arg(p.done()).arg(m_state.ok).arg(p.postersPerSecond, 0, 'f', 1);
    if (p.waiting > 0)
        text += tr(" · %1 being drawn").arg(p.waiting);
    if (p.noFont > 0)
        text += tr(" · %1 without a font").arg(p.noFont);
    if (p.failed > 0)
        text += tr(" · %1 failed").arg(p.failed);
    return text;
}

QString BulkJobBar::problemText() const
{
    QStringList lines;
    for (const QString& line : {m_error, m_cluster.problem})
        if (!line.isEmpty())
            lines << line;
    if (m_posters)
        for (const std::string& problem : m_posters->problems)
            lines << tr("Poster, %1").arg(QString::fromStdString(problem));
    return lines.join(QLatin1Char('\n'));
}

QString BulkJobBar::clusterText() const
{
    const ClusterJobView& c = m_cluster;
    if (c.url.isEmpty())
        return {};
    QString text = tr("Workers at %1: %2 live · %3 rows queued, %4 at workers · %5 dead-letter rows · %6 duplicates")
                       .arg(c.url).arg(c.liveWorkers).arg(c.queued).arg(c.pending).arg(c.deadLetters).arg(c.duplicates);
    QStringList workers;
    for (const ClusterWorkerView& w : c.workers)
        workers << tr("%1%2: %3 rows, %4 rows/s")
                       .arg(w.name, w.live ? (w.state.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(w.state))
                                           : tr(" (gone)"))
                       .arg(w.rows).arg(w.rowsPerSecond, 0, 'f', 1);
    if (!workers.isEmpty())
        text += QLatin1Char('\n') + workers.join(QStringLiteral(" · "));
    for (const QString& refusal : c.refusals)
        text += QLatin1Char('\n') + refusal;
    return text;
}

void BulkJobBar::showLabels()
{
    m_details->setText(summaryText());
    const QString cluster = clusterText();
    m_workers->setText(cluster);
    m_workers->setVisible(!cluster.isEmpty());
    const QString posters = posterText();
    m_postersLabel->setText(posters);
    m_postersLabel->setVisible(!posters.isEmpty());
    const QString problem = problemText();
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
}

void BulkJobBar::retranslateUi()
{
    const bool active = m_state.state == BulkState::Running || m_state.state == BulkState::Paused
                        || m_state.state == BulkState::Idle;
    m_title->setText(tr("CSV %1: %2").arg(QFileInfo(m_input).fileName(), stateText()));
    showLabels();
    m_pause->setText(m_state.state == BulkState::Paused ? tr("Resume") : tr("Pause"));
    m_cancel->setText(tr("Cancel job"));
    m_pause->setEnabled(active);
    m_cancel->setEnabled(active);
}

void BulkJobBar::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace couplet
