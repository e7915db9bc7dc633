#include "queue/queue_model.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace couplet;

class TestQueueModel : public QObject {
    Q_OBJECT
private:
    static QueueEntry entry(quint64 id, bool bulk = false)
    {
        QueueEntry e;
        e.id = id;
        e.prompt = QStringLiteral("关键词: %1").arg(id);
        e.bulk = bulk;
        return e;
    }

private Q_SLOTS:
    void passesModelTester()
    {
        QueueModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.addRequest(entry(1));
        model.addRequests({entry(2), entry(3, true), entry(4)});
        model.setProgress(2, 0.5);
        model.finish(3, QueueState::Done, 120, 55.5);
        model.finish(4, QueueState::Failed, 10, 0, QStringLiteral("boom"));
        model.flush();
        model.clearFinished();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.idAt(0), quint64(1));
        QCOMPARE(model.idAt(1), quint64(2));
        QCOMPARE(model.rowOf(2), 1);
        QCOMPARE(model.rowOf(3), -1);
    }

    void showsStateProgressAndSpeed()
    {
        QueueModel model;
        model.addRequests({entry(7), entry(8, true)});
        model.setProgress(7, 0.42);
        model.finish(8, QueueState::Done, 250.4, 61.25);
        QCOMPARE(model.data(model.index(0, QueueModel::ProgressColumn)).toInt(), 42);
        QCOMPARE(model.data(model.index(0, QueueModel::StateColumn)).toString(), QueueModel::stateName(QueueState::Running));
        QCOMPARE(model.data(model.index(1, QueueModel::ProgressColumn)).toInt(), 100);
        QCOMPARE(model.data(model.index(1, QueueModel::LatencyColumn)).toInt(), 250);
        QCOMPARE(model.data(model.index(1, QueueModel::SpeedColumn)).toString(), QStringLiteral("61.3"));
        QCOMPARE(model.data(model.index(1, QueueModel::PriorityColumn)).toString(), QStringLiteral("bulk"));
        QCOMPARE(model.countIn(QueueState::Done), 1);
        QCOMPARE(model.unfinishedIds(), QList<quint64>{7});
    }

    void aPausedJobIsUnfinishedAndRunsAgainOnProgress()
    {
        QueueModel model;
        model.addRequests({entry(7, true)});
        model.setProgress(7, 0.25);
        model.setPaused(7);
        QCOMPARE(model.entry(7)->state, QueueState::Paused);
        QCOMPARE(model.data(model.index(0, QueueModel::StateColumn)).toString(), QueueModel::stateName(QueueState::Paused));
        QVERIFY(!model.entry(7)->isFinished());
        QCOMPARE(model.unfinishedIds(), QList<quint64>{7});
        QCOMPARE(model.countIn(QueueState::Paused), 1);
        model.setProgress(7, 0.5);   // resumed
        QCOMPARE(model.entry(7)->state, QueueState::Running);
        model.finish(7, QueueState::Done, 10, 1);
        model.setPaused(7);          // a finished job stays finished
        QCOMPARE(model.entry(7)->state, QueueState::Done);
    }

    void coalescesUpdatesIntoOneSignalPerRow()
    {
        QueueModel model;
        QList<QueueEntry> entries;
        for (quint64 id = 1; id <= 5000; ++id)
            entries << entry(id, true);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.addRequests(entries);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.rowCount(), 5000);

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        for (int step = 1; step <= 20; ++step) {
            for (quint64 id = 100; id < 200; ++id)
                model.setProgress(id, step / 20.0);
        }
        QCOMPARE(changed.count(), 0);
        model.flush();
        QCOMPARE(changed.count(), 100);
        for (const QList<QVariant>& args : changed) {
            const auto topLeft = args.at(0).value<QModelIndex>();
            const auto bottomRight = args.at(1).value<QModelIndex>();
            QCOMPARE(topLeft.row(), bottomRight.row());
            QCOMPARE(bottomRight.column(), QueueModel::ColumnCount - 1);
        }
        model.flush();
        QCOMPARE(changed.count(), 100);
    }

    void ignoresUpdatesAfterFinish()
    {
        QueueModel model;
        model.addRequest(entry(1));
        model.finish(1, QueueState::Cancelled, 5, 0);
        model.setProgress(1, 0.9);
        model.finish(1, QueueState::Done, 10, 10);
        QCOMPARE(model.entry(1)->state, QueueState::Cancelled);
        QCOMPARE(model.entry(1)->progress, 0.0);
    }
};

QTEST_MAIN(TestQueueModel)
#include "test_queue_model.moc"
