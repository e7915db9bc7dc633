#include "history_model.h"

#include "history_store.h"

#include <QColor>
#include <QLocale>
#include <QSqlRecord>

#include <algorithm>

namespace couplet {
namespace {

// Quotes text for a LIKE pattern: '' for quotes, \ escapes % and _.
QString likePattern(const QString& text)
{
    QString escaped = text;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    escaped.replace(QLatin1Char('%'), QLatin1String("\\%"));
    escaped.replace(QLatin1Char('_'), QLatin1String("\\_"));
    escaped.replace(QLatin1Char('\''), QLatin1String("''"));
    return QLatin1String("'%") + escaped + QLatin1String("%'");
}

} // namespace

HistoryModel::HistoryModel(QObject* parent, const QSqlDatabase& db) : QSqlTableModel(parent, db)
{
    setTable(QLatin1String(HistoryStore::kTable));
    setEditStrategy(QSqlTableModel::OnManualSubmit);
    setSort(IdColumn, Qt::DescendingOrder);
    select();
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const
{
    if (index.isValid() && index.column() == StarredColumn) {
        const bool starred = QSqlTableModel::data(index, Qt::EditRole).toInt() != 0;
        if (role == Qt::DisplayRole)
            return starred ? QStringLiteral("★") : QString();
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignCenter));
        if (role == Qt::ForegroundRole)
            return QColor(0xd0, 0x8c, 0x00);
    }
    if (index.isValid() && index.column() == ScoreColumn && role == Qt::DisplayRole)
        return QString::number(QSqlTableModel::data(index, role).toDouble(), 'f', 2);
    if (index.isValid() && index.column() == CreatedColumn && role == Qt::DisplayRole) {
        const QDateTime when = QDateTime::fromString(QSqlTableModel::data(index, role).toString(), Qt::ISODate);
        return QLocale().toString(when, QLocale::ShortFormat);
    }
    return QSqlTableModel::data(index, role);
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QSqlTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn: return tr("#");
    case CreatedColumn: return tr("Created");
    case UpperColumn: return tr("上联");
    case LowerColumn: return tr("下联");
    case HengpiColumn: return tr("横批");
    case PromptColumn: return tr("Prompt");
    case ModeColumn: return tr("Mode");
    case ScoreColumn: return tr("Score");
    case SeedColumn: return tr("Seed");
    case StarredColumn: return tr("★");
    }
    return QSqlTableModel::headerData(section, orientation, role);
}

void HistoryModel::setSearch(const QString& text)
{
    m_search = text.trimmed();
    applyFilter();
}

void HistoryModel::setStarredOnly(bool starredOnly)
{
    m_starredOnly = starredOnly;
    applyFilter();
}

void HistoryModel::applyFilter()
{
    QStringList clauses;
    if (!m_search.isEmpty()) {
        const QString like = likePattern(m_search);
        QStringList any;
        for (const char* column : {"upper", "lower", "hengpi", "prompt"})
            any << QStringLiteral("%1 LIKE %2 ESCAPE '\\'").arg(QLatin1String(column), like);
        clauses << QLatin1Char('(') + any.join(QLatin1String(" OR ")) + QLatin1Char(')');
    }
    if (m_starredOnly)
        clauses << QStringLiteral("starred = 1");
    setFilter(clauses.join(QLatin1String(" AND ")));
    select();
}

void HistoryModel::refresh() { select(); }

HistoryEntry HistoryModel::entryAt(int row) const
{
    const QSqlRecord r = record(row);
    HistoryEntry e;
    e.couplet = {r.value(QStringLiteral("upper")).toString(), r.value(QStringLiteral("lower")).toString(),
                 r.value(QStringLiteral("hengpi")).toString()};
    e.prompt = r.value(QStringLiteral("prompt")).toString();
    e.mode = r.value(QStringLiteral("mode")).toInt();
    e.score = r.value(QStringLiteral("score")).toDouble();
    e.seed = r.value(QStringLiteral("seed")).toULongLong();
    e.created = QDateTime::fromString(r.value(QStringLiteral("created")).toString(), Qt::ISODate);
    return e;
}

qint64 HistoryModel::idAt(int row) const { return record(row).value(QStringLiteral("id")).toLongLong(); }

bool HistoryModel::isStarred(int row) const
{
    return record(row).value(QStringLiteral("starred")).toInt() != 0;
}

bool HistoryModel::setStarred(int row, bool starred)
{
    if (!setData(index(row, StarredColumn), starred ? 1 : 0, Qt::EditRole))
        return false;
    return submitAll();
}

bool HistoryModel::removeEntries(QList<int> rows)
{
    std::sort(rows.begin(), rows.end(), std::greater<>());
    for (int row : rows) {
        if (!removeRow(row)) {
            revertAll();
            return false;
        }
    }
    return submitAll();
}

} // namespace couplet
