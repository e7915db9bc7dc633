#include "history_store.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QUuid>

namespace couplet {
namespace {

// A null QString binds as SQL NULL, which the NOT NULL columns refuse.
QString nonNull(const QString& text) { return text.isNull() ? QStringLiteral("") : text; }

} // namespace

HistoryStore::HistoryStore(QObject* parent)
    : QObject(parent), m_connection(QStringLiteral("history-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &HistoryStore::flush);
}

HistoryStore::~HistoryStore()
{
    if (isOpen())
        flush();
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        if (db.isValid())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

QString HistoryStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QStringLiteral("/history.sqlite");
}

QString HistoryStore::open(const QString& path)
{
    m_path = path;
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    db.setDatabaseName(path);
    if (!db.open())
        return tr("Cannot open the history %1: %2").arg(path, db.lastError().text());
    const QString damage = checkIntegrity();
    if (damage.isEmpty())
        return createSchema();
    // A crash or a full disk left a file SQLite cannot read: keep it for
    // whoever wants to rescue it, and begin a new history.
    db.close();
    const QString aside = path + QStringLiteral(".damaged-")
                          + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    if (!QFile::rename(path, aside))
        return tr("The history %1 could not be read (%2), nor moved aside; nothing is saved this session.")
            .arg(path, damage);
    for (const char* suffix : {"-wal", "-shm", "-journal"})
        QFile::rename(path + QLatin1String(suffix), aside + QLatin1String(suffix));
    if (!db.open())
        return tr("Cannot open the history %1: %2").arg(path, db.lastError().text());
    if (const QString error = createSchema(); !error.isEmpty())
        return error;
    return tr("The history %1 could not be read (%2). It was moved to %3 and a new history begun.")
        .arg(path, damage, aside);
}

// Empty when SQLite can read the whole file, else what it found wrong.
QString HistoryStore::checkIntegrity() const
{
    QSqlQuery check(database());
    if (!check.exec(QStringLiteral("PRAGMA quick_check")))
        return check.lastError().text();
    if (!check.next())
        return tr("the integrity check returned nothing");
    const QString verdict = check.value(0).toString();
    return verdict == QLatin1String("ok") ? QString() : verdict;
}

QString HistoryStore::createSchema()
{
    QSqlQuery query(database());
    const bool ok = query.exec(QStringLiteral(
        "CREATE TABLE IF NOT EXISTS couplets ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " created TEXT NOT NULL,"
        " upper TEXT NOT NULL, lower TEXT NOT NULL, hengpi TEXT NOT NULL,"
        " prompt TEXT NOT NULL DEFAULT '', mode INTEGER NOT NULL DEFAULT 0,"
        " score REAL NOT NULL DEFAULT 0, seed INTEGER NOT NULL DEFAULT 0,"
        " starred INTEGER NOT NULL DEFAULT 0)"));
    if (!ok)
        return tr("Cannot create the history table in %1: %2").arg(m_path, query.lastError().text());
    return {};
}

bool HistoryStore::isOpen() const
{
    const QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    return db.isValid() && db.isOpen();
}

QSqlDatabase HistoryStore::database() const { return QSqlDatabase::database(m_connection, false); }

void HistoryStore::add(const HistoryEntry& entry)
{
    m_pending << entry;
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

bool HistoryStore::flush()
{
    if (m_pending.isEmpty() || !isOpen())
        return m_pending.isEmpty();
    QSqlDatabase db = database();
    db.transaction();
    QSqlQuery insert(db);
    insert.prepare(QStringLiteral(
        "INSERT INTO couplets (created, upper, lower, hengpi, prompt, mode, score, seed, starred)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)"));
    for (const HistoryEntry& e : m_pending) {
        insert.addBindValue(e.created.toString(Qt::ISODate));
        insert.addBindValue(nonNull(e.couplet.upper));
        insert.addBindValue(nonNull(e.couplet.lower));
        insert.addBindValue(nonNull(e.couplet.hengpi));
        insert.addBindValue(nonNull(e.prompt));
        insert.addBindValue(e.mode);
        insert.addBindValue(e.score);
        insert.addBindValue(qint64(e.seed));
        if (!insert.exec()) {
            const QString message = tr("Cannot save to the history %1: %2")
                                        .arg(m_path, insert.lastError().text());
            db.rollback();
            Q_EMIT writeFailed(message);
            return false;
        }
    }
    db.commit();
    m_pending.clear();
    Q_EMIT changed();
    return true;
}

} // namespace couplet
