#include "queue_model.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace couplet {

QueueModel::QueueModel(QObject* parent) : QAbstractTableModel(parent)
{
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &QueueModel::flush);
    m_flushTimer.start();
}

int QueueModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int QueueModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString QueueModel::stateName(QueueState state)
{
    switch (state) {
    case QueueState::Waiting: return tr("waiting");
    case QueueState::Running: return tr("running");
    case QueueState::Paused: return tr("paused");
    case QueueState::Done: return tr("done");
    case QueueState::Failed: return tr("failed");
    case QueueState::Cancelled: return tr("cancelled");
    }
    return {};
}

static QVariant stateColour(QueueState state)
{
    switch (state) {
    case QueueState::Running: return QBrush(QColor(0x1f, 0x6f, 0xd0));
    case QueueState::Paused: return QBrush(QColor(0xb0, 0x70, 0x00));
    case QueueState::Done: return QBrush(QColor(0x2e, 0x8b, 0x3a));
    case QueueState::Failed: return QBrush(QColor(0xc0, 0x20, 0x20));
    case QueueState::Cancelled: return QBrush(QColor(0x80, 0x80, 0x80));
    case QueueState::Waiting: break;
    }
    return {};
}

QVariant QueueModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QueueEntry& e = m_entries[size_t(index.row())];
    const int column = index.column();
    if (role == Qt::DisplayRole) {
        switch (column) {
        case IdColumn: return e.id;
        case PromptColumn: return e.prompt;
        case PriorityColumn: return e.api ? tr("api") : e.bulk ? tr("bulk") : tr("interactive");
        case StateColumn: return stateName(e.state);
        case ProgressColumn: return int(e.progress * 100 + 0.5);
        case LatencyColumn: return e.isFinished() && e.latencyMs > 0 ? QVariant(qRound(e.latencyMs)) : QVariant();
        case SpeedColumn: return e.tokensPerSecond > 0 ? QVariant(QString::number(e.tokensPerSecond, 'f', 1)) : QVariant();
        }
    } else if (role == Qt::ToolTipRole && column == StateColumn && !e.error.isEmpty()) {
        return e.error;
    } else if (role == Qt::ForegroundRole && column == StateColumn) {
        return stateColour(e.state);
    } else if (role == Qt::TextAlignmentRole && column != PromptColumn) {
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    }
    return {};
}

QVariant QueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn: return tr("#");
    case PromptColumn: return tr("Prompt");
    case PriorityColumn: return tr("Priority");
    case StateColumn: return tr("Status");
    case ProgressColumn: return tr("Progress");
    case LatencyColumn: return tr("Latency (ms)");
    case SpeedColumn: return tr("Tokens/s");
    }
    return {};
}

void QueueModel::addRequest(const QueueEntry& entry) { addRequests({entry}); }

void QueueModel::addRequests(const QList<QueueEntry>& entries)
{
    if (entries.isEmpty())
        return;
    const int first = int(m_entries.size());
    beginInsertRows({}, first, first + int(entries.size()) - 1);
    for (const QueueEntry& e : entries) {
        m_rowOfId.insert(e.id, int(m_entries.size()));
        m_entries.push_back(e);
    }
    endInsertRows();
}

QueueEntry* QueueModel::mutableEntry(quint64 id)
{
    const auto it = m_rowOfId.constFind(id);
    return it == m_rowOfId.cend() ? nullptr : &m_entries[size_t(*it)];
}

const QueueEntry* QueueModel::entry(quint64 id) const
{
    const auto it = m_rowOfId.constFind(id);
    return it == m_rowOfId.cend() ? nullptr : &m_entries[size_t(*it)];
}

void QueueModel::touch(quint64 id) { m_dirtyRows.insert(m_rowOfId.value(id)); }

void QueueModel::setProgress(quint64 id, double fraction)
{
    QueueEntry* e = mutableEntry(id);
    if (!e || e->isFinished())
        return;
    e->state = QueueState::Running;
    e->progress = std::clamp(fraction, 0.0, 1.0);
    touch(id);
}

void QueueModel::setPaused(quint64 id)
{
    QueueEntry* e = mutableEntry(id);
    if (!e || e->isFinished() || e->state == QueueState::Paused)
        return;
    e->state = QueueState::Paused;
    touch(id);
}

void QueueModel::setPrompt(quint64 id, const QString& prompt)
{
    QueueEntry* e = mutableEntry(id);
    if (!e || e->prompt == prompt)
        return;
    e->prompt = prompt;
    touch(id);
}

void QueueModel::finish(quint64 id, QueueState state, double latencyMs, double tokensPerSecond,
                        const QString& error)
{
    QueueEntry* e = mutableEntry(id);
    if (!e || e->isFinished())
        return;
    e->state = state;
    e->latencyMs = latencyMs;
    e->tokensPerSecond = tokensPerSecond;
    e->error = error;
    if (state == QueueState::Done)
        e->progress = 1.0;
    touch(id);
}

void QueueModel::flush()
{
    if (m_dirtyRows.isEmpty())
        return;
    QList<int> rows(m_dirtyRows.cbegin(), m_dirtyRows.cend());
    m_dirtyRows.clear();
    std::sort(rows.begin(), rows.end());
    for (int row : rows) {
        if (row < int(m_entries.size()))
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

void QueueModel::clearFinished()
{
    flush();
    // Remove runs of finished rows from the bottom up so each removal is one signal.
    int row = int(m_entries.size()) - 1;
    while (row >= 0) {
        if (!m_entries[size_t(row)].isFinished()) {
            --row;
            continue;
        }
        int first = row;
        while (first > 0 && m_entries[size_t(first - 1)].isFinished())
            --first;
        beginRemoveRows({}, first, row);
        m_entries.erase(m_entries.begin() + first, m_entries.begin() + row + 1);
        endRemoveRows();
        row = first - 1;
    }
    rebuildIndex();
}

void QueueModel::rebuildIndex()
{
    m_rowOfId.clear();
    for (size_t i = 0; i < m_entries.size(); ++i)
        m_rowOfId.insert(m_entries[i].id, int(i));
}

quint64 QueueModel::idAt(int row) const
{
    return row >= 0 && row < int(m_entries.size()) ? m_entries[size_t(row)].id : 0;
}

int QueueModel::rowOf(quint64 id) const { return m_rowOfId.value(id, -1); }

int QueueModel::countIn(QueueState state) const
{
    return int(std::count_if(m_entries.begin(), m_entries.end(),
                             [state](const QueueEntry& e) { return e.state == state; }));
}

QList<quint64> QueueModel::unfinishedIds() const
{
    QList<quint64> ids;
    for (const QueueEntry& e : m_entries) {
        if (!e.isFinished())
            ids << e.id;
    }
    return ids;
}

void QueueModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!m_entries.empty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_entries.size()) - 1, ColumnCount - 1));
}

} // namespace couplet
