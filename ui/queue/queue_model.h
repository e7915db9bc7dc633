#pragma once

#include "queue_entry.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QSet>
#include <QTimer>

#include <vector>

namespace couplet {

// Every request with its state, priority, progress, latency and speed.
// Updates only touch the stored rows; a timer then emits one dataChanged per
// touched row, so thousands of streaming requests cost a few signals a second.
class QueueModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, PromptColumn, PriorityColumn, StateColumn, ProgressColumn,
                  LatencyColumn, SpeedColumn, ColumnCount };
    static constexpr int kFlushIntervalMs = 200;

    explicit QueueModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void addRequest(const QueueEntry& entry);
    void addRequests(const QList<QueueEntry>& entries);
    // Sets the progress; a waiting or paused request is running again.
    void setProgress(quint64 id, double fraction);
    // A bulk job that stopped until the user resumes it.
    void setPaused(quint64 id);
    void setPrompt(quint64 id, const QString& prompt);
    void finish(quint64 id, QueueState state, double latencyMs, double tokensPerSecond,
                const QString& error = {});
    // Removes finished, failed and cancelled rows.
    void clearFinished();

    const QueueEntry* entry(quint64 id) const;
    quint64 idAt(int row) const;
    int rowOf(quint64 id) const;
    int countIn(QueueState state) const;
    QList<quint64> unfinishedIds() const;

    static QString stateName(QueueState state);

public Q_SLOTS:
    // Emits the pending dataChanged signals now (the timer calls it).
    void flush();
    void retranslate();

private:
    QueueEntry* mutableEntry(quint64 id);
    void touch(quint64 id);
    void rebuildIndex();

    std::vector<QueueEntry> m_entries;
    QHash<quint64, int> m_rowOfId;
    QSet<int> m_dirtyRows;
    QTimer m_flushTimer;
};

} // namespace couplet
