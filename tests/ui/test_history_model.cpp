#include "history/history_model.h"
#include "history/history_store.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace couplet;

class TestHistoryModel : public QObject {
    Q_OBJECT
private:
    static HistoryEntry entry(const QString& upper, const QString& lower, const QString& hengpi,
                              const QString& prompt)
    {
        HistoryEntry e;
        e.couplet = {upper, lower, hengpi};
        e.prompt = prompt;
        e.score = -1.5;
        e.seed = 42;
        return e;
    }

    static void fill(HistoryStore& store)
    {
        store.add(entry(QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户欢"), QStringLiteral("万象更新"), QStringLiteral("关键词: 春")));
        store.add(entry(QStringLiteral("龙腾盛世家家乐"), QStringLiteral("凤舞新春处处欢"), QStringLiteral("龙凤呈祥"), QStringLiteral("关键词: 龙年")));
        store.add(entry(QStringLiteral("百分之百_好"), QStringLiteral("十全十美家"), QStringLiteral("四季平安"), QStringLiteral("50% off")));
        QVERIFY(store.flush());
    }

private Q_SLOTS:
    void storesSearchesStarsAndDeletes()
    {
        QTemporaryDir dir;
        HistoryStore store;
        QCOMPARE(store.open(dir.filePath(QStringLiteral("h.sqlite"))), QString());
        QSignalSpy changed(&store, &HistoryStore::changed);
        fill(store);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(store.pendingCount(), 0);

        HistoryModel model(nullptr, store.database());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.entryAt(0).couplet.hengpi, QStringLiteral("四季平安"));   // newest first

        model.setSearch(QStringLiteral("龙"));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.entryAt(0).couplet.upper, QStringLiteral("龙腾盛世家家乐"));
        model.setSearch(QStringLiteral("%"));   // a literal percent sign, not a wildcard
        QCOMPARE(model.rowCount(), 1);
        model.setSearch(QStringLiteral("_"));
        QCOMPARE(model.rowCount(), 1);
        model.setSearch(QStringLiteral("it's"));
        QCOMPARE(model.rowCount(), 0);
        model.setSearch(QString());
        QCOMPARE(model.rowCount(), 3);

        QVERIFY(model.setStarred(1, true));
        model.setStarredOnly(true);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.entryAt(0).couplet.hengpi, QStringLiteral("龙凤呈祥"));
        model.setStarredOnly(false);

        QVERIFY(model.removeEntries({0, 2}));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.entryAt(0).couplet.hengpi, QStringLiteral("龙凤呈祥"));
        QCOMPARE(model.entryAt(0).seed, quint64(42));
    }

    void persistsAcrossReopen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/folder/h.sqlite"));
        {
            HistoryStore store;
            QCOMPARE(store.open(path), QString());
            store.add(entry(QStringLiteral("一"), QStringLiteral("二"), QStringLiteral("三四五六"), QString()));
        }   // the destructor writes what is still buffered
        HistoryStore store;
        QCOMPARE(store.open(path), QString());
        HistoryModel model(nullptr, store.database());
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.entryAt(0).couplet.lower, QStringLiteral("二"));
    }

    void reportsAnUnopenablePath()
    {
        QTemporaryDir dir;
        HistoryStore store;
        const QString error = store.open(dir.path());   // a folder, not a file
        QVERIFY(!error.isEmpty());
        QVERIFY(error.contains(dir.path()));
    }
};

QTEST_MAIN(TestHistoryModel)
#include "test_history_model.moc"
