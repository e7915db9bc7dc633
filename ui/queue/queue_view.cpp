#include "queue_view.h"

#include "progress_delegate.h"
#include "queue_model.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace couplet {

QueueView::QueueView(QueueModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_table(new QTableView(this)), m_summary(new QLabel(this)),
      m_cancel(new QPushButton(this)), m_cancelAll(new QPushButton(this)),
      m_clear(new QPushButton(this))
{
    m_table->setModel(model);
    m_table->setItemDelegateForColumn(QueueModel::ProgressColumn, new ProgressDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    // Fixed row heights keep the view virtualised: it never measures every row.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setSectionResizeMode(QueueModel::PromptColumn, QHeaderView::Stretch);
    m_table->setColumnWidth(QueueModel::IdColumn, 56);
    m_table->setColumnWidth(QueueModel::ProgressColumn, 120);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_summary, 1);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_cancelAll);
    buttons->addWidget(m_clear);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table);
    layout->addLayout(buttons);

    connect(m_cancel, &QPushButton::clicked, this, &QueueView::cancelSelected);
    connect(m_cancelAll, &QPushButton::clicked, this, &QueueView::cancelAllRequested);
    connect(m_clear, &QPushButton::clicked, m_model, &QueueModel::clearFinished);
    connect(m_table, &QTableView::activated, this,
            [this](const QModelIndex& index) { Q_EMIT requestActivated(m_model->idAt(index.row())); });
    // Counting is O(rows): refresh the summary twice a second, not per change.
    auto* summaryTimer = new QTimer(this);
    connect(summaryTimer, &QTimer::timeout, this, &QueueView::updateSummary);
    summaryTimer->start(500);
    retranslateUi();
}

void QueueView::cancelSelected()
{
    QList<quint64> ids;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        ids << m_model->idAt(index.row());
    if (!ids.isEmpty())
        Q_EMIT cancelRequested(ids);
}

void QueueView::updateSummary()
{
    m_summary->setText(tr("%1 waiting, %2 running, %3 paused, %4 done, %5 failed, %6 cancelled")
                           .arg(m_model->countIn(QueueState::Waiting))
                           .arg(m_model->countIn(QueueState::Running))
                           .arg(m_model->countIn(QueueState::Paused))
                           .arg(m_model->countIn(QueueState::Done))
                           .arg(m_model->countIn(QueueState::Failed))
                           .arg(m_model->countIn(QueueState::Cancelled)));
}

void QueueView::retranslateUi()
{
    m_cancel->setText(tr("Cancel selected"));
    m_cancelAll->setText(tr("Cancel all"));
    m_clear->setText(tr("Clear finished"));
    updateSummary();
}

void QueueView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        m_model->retranslate();
    }
    QWidget::changeEvent(event);
}

} // namespace couplet
