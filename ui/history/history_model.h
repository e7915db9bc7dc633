#pragma once

#include "history_entry.h"

#include <QSqlTableModel>

namespace couplet {

// The stored couplets, newest first, filtered by a search text and the star.
class HistoryModel : public QSqlTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, CreatedColumn, UpperColumn, LowerColumn, HengpiColumn, PromptColumn,
                  ModeColumn, ScoreColumn, SeedColumn, StarredColumn };

    HistoryModel(QObject* parent, const QSqlDatabase& db);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void setSearch(const QString& text);
    void setStarredOnly(bool starredOnly);
    QString search() const { return m_search; }

    HistoryEntry entryAt(int row) const;
    qint64 idAt(int row) const;
    bool isStarred(int row) const;
    bool setStarred(int row, bool starred);
    // Deletes the given rows; returns false with lastError() set on failure.
    bool removeEntries(QList<int> rows);

public Q_SLOTS:
    // Re-reads the table (after the store wrote new couplets).
    void refresh();

private:
    void applyFilter();

    QString m_search;
    bool m_starredOnly = false;
};

} // namespace couplet
