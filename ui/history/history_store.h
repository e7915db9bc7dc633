#pragma once

#include "history_entry.h"

#include <QList>
#include <QObject>
#include <QSqlDatabase>
#include <QTimer>

namespace couplet {

// The SQLite file every generated couplet is written to. Couplets are
// buffered and written in one transaction every kFlushIntervalMs, so a bulk
// job finishing thousands of couplets does not stall the GUI with one disk
// sync per row.
class HistoryStore : public QObject {
    Q_OBJECT
public:
    static constexpr int kFlushIntervalMs = 500;
    static constexpr const char* kTable = "couplets";

    explicit HistoryStore(QObject* parent = nullptr);
    ~HistoryStore() override;

    // <AppDataLocation>/history.sqlite
    static QString defaultPath();
    // Opens (and creates) the database; returns an empty string or what the
    // user should be told. A file SQLite cannot read (damaged, truncated,
    // not a database) is renamed to <path>.damaged-<date-time> and a new
    // history begins; the message says so.
    QString open(const QString& path = defaultPath());
    bool isOpen() const;
    QSqlDatabase database() const;
    QString path() const { return m_path; }

    void add(const HistoryEntry& entry);
    int pendingCount() const { return int(m_pending.size()); }

public Q_SLOTS:
    // Writes the buffered couplets now; returns false (and keeps them) on error.
    bool flush();

Q_SIGNALS:
    void changed();
    void writeFailed(const QString& message);

private:
    QString checkIntegrity() const;
    QString createSchema();

    QString m_connection;
    QString m_path;
    QList<HistoryEntry> m_pending;
    QTimer m_flushTimer;
};

} // namespace couplet
