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
      m_pause(new QPushButton), m_cancel(new QPushButton)
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
    QString text = tr("%1 rows/s · ETA %2 · %3 ok, %4 invalid, %5 failed · %6 in flight")
                       .arg(p.rowsPerSecond, 0, 'f', 1)
                       .arg(formatEta(p.etaSeconds))
                       .arg(p.ok).arg(p.invalid).arg(p.failed).arg(p.inFlight);
    if (!m_error.isEmpty())
        text += QStringLiteral(" · ") + m_error;
    return text;
}

void BulkJobBar::retranslateUi()
{
    const bool active = m_state.state == BulkState::Running || m_state.state == BulkState::Paused
                        || m_state.state == BulkState::Idle;
    m_title->setText(tr("CSV %1: %2").arg(QFileInfo(m_input).fileName(), stateText()));
    m_details->setText(summaryText());
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
