#include "history_panel.h"

#include "history_model.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QSqlError>
#include <QTableView>
#include <QVBoxLayout>

namespace couplet {

HistoryPanel::HistoryPanel(HistoryModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_search(new QLineEdit(this)), m_starredOnly(new QCheckBox(this)),
      m_table(new QTableView(this)), m_star(new QPushButton(this)), m_open(new QPushButton(this)),
      m_delete(new QPushButton(this))
{
    m_table->setModel(model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    // A history that could not be opened has no columns at all.
    if (model->columnCount() > HistoryModel::StarredColumn) {
        for (int column : {HistoryModel::IdColumn, HistoryModel::ModeColumn, HistoryModel::SeedColumn})
            m_table->hideColumn(column);
        m_table->horizontalHeader()->setSectionResizeMode(HistoryModel::PromptColumn, QHeaderView::Stretch);
    }
    m_search->setClearButtonEnabled(true);

    auto* top = new QHBoxLayout;
    top->addWidget(m_search, 1);
    top->addWidget(m_starredOnly);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_star);
    buttons->addWidget(m_open);
    buttons->addWidget(m_delete);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    // Search as the user types, but query once they pause.
    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(250);
    connect(m_search, &QLineEdit::textChanged, &m_searchTimer, qOverload<>(&QTimer::start));
    connect(&m_searchTimer, &QTimer::timeout, this, [this] { m_model->setSearch(m_search->text()); });
    connect(m_starredOnly, &QCheckBox::toggled, m_model, &HistoryModel::setStarredOnly);
    connect(m_star, &QPushButton::clicked, this, &HistoryPanel::toggleStar);
    connect(m_open, &QPushButton::clicked, this, &HistoryPanel::openSelected);
    connect(m_delete, &QPushButton::clicked, this, &HistoryPanel::deleteSelected);
    connect(m_table, &QTableView::activated, this, &HistoryPanel::openSelected);
    retranslateUi();
}

void HistoryPanel::retranslateUi()
{
    m_search->setPlaceholderText(tr("Search 上联, 下联, 横批 or prompt"));
    m_starredOnly->setText(tr("Starred only"));
    m_star->setText(tr("Star / unstar"));
    m_open->setText(tr("Open in editor"));
    m_delete->setText(tr("Delete"));
}

QList<int> HistoryPanel::selectedRows() const
{
    QList<int> rows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    return rows;
}

void HistoryPanel::toggleStar()
{
    for (int row : selectedRows()) {
        if (!m_model->setStarred(row, !m_model->isStarred(row)))
            Q_EMIT errorOccurred(m_model->lastError().text());
    }
}

void HistoryPanel::openSelected()
{
    const QList<int> rows = selectedRows();
    if (!rows.isEmpty())
        Q_EMIT openRequested(m_model->entryAt(rows.first()));
}

void HistoryPanel::deleteSelected()
{
    const QList<int> rows = selectedRows();
    if (!rows.isEmpty() && !m_model->removeEntries(rows))
        Q_EMIT errorOccurred(m_model->lastError().text());
}

void HistoryPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace couplet
