#include "fake_backend.h"

#include "csv_reader.h"
#include "engine_controller.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <map>

using namespace couplet;
using couplet::test::FakeBackend;

// Bulk CSV jobs through the engine thread: the same BulkJob and journal as
// the CLI, with rows as Bulk-priority sequences in the engine's scheduler.
class TestEngineBulk : public QObject {
    Q_OBJECT
private:
    static constexpr int kTimeoutMs = 60000;

    static void load(EngineController& engine)
    {
        QSignalSpy loaded(&engine, &EngineController::modelLoaded);
        engine.loadModel(QStringLiteral("fake"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    }

    // id,关键词 with `rows` rows; row 3 asks for the fake's invalid keyword.
    QString writeInput(int rows)
    {
        const QString path = m_dir.filePath(QStringLiteral("prompts.csv"));
        std::ofstream out(path.toStdString(), std::ios::binary);
        out << "id,关键词\n";
        for (int r = 1; r <= rows; ++r)
            out << r << ',' << (r == 3 ? "bad" : "春") << '\n';
        return path;
    }

    BulkRequest request(const QString& input)
    {
        BulkRequest r;
        r.input = input;
        r.output = m_dir.filePath(QStringLiteral("out.csv"));
        r.englishHeader = true;
        r.defaults.length = 5;
        r.journal = m_dir.filePath(QStringLiteral("jobs.sqlite"));
        r.maxInFlight = 16;
        return r;
    }

    // Writes one interactive couplet of `length` characters, start to end.
    static void serveOne(EngineController& engine, int length)
    {
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        GenerationSpec spec;
        spec.keywords = "福";
        spec.length = length;
        engine.submit(spec);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QCOMPARE(finished.at(0).at(0).value<RequestSummary>().outcome, Outcome::Done);
    }

    static BulkStatus last(const QSignalSpy& spy) { return spy.last().at(0).value<BulkStatus>(); }

    static bool ended(const QSignalSpy& spy)
    {
        if (spy.isEmpty())
            return false;
        const BulkState state = last(spy).progress.state;
        return state == BulkState::Finished || state == BulkState::Cancelled || state == BulkState::Failed;
    }

    // id -> status of every output row, and how often each id is written
    // (a map alone would hide a duplicated row).
    struct Output {
        std::map<std::string, std::string> status;
        std::map<std::string, int> count;
    };

    static Output readOutput(const QString& path)
    {
        CsvReader reader(path.toStdString());
        const auto& header = reader.header();
        const auto statusColumn = std::size_t(std::find(header.begin(), header.end(), "status") - header.begin());
        Output out;
        CsvRecord record;
        while (reader.next(record)) {
            out.status[record.fields.at(0)] = record.fields.at(statusColumn);
            ++out.count[record.fields.at(0)];
        }
        return out;
    }

    // "" when the output holds the ids 1..rows exactly once each, else what is wrong.
    static QString everyRowOnce(const Output& out, int rows)
    {
        QStringList problems;
        for (int id = 1; id <= rows; ++id) {
            const auto it = out.count.find(std::to_string(id));
            const int n = it == out.count.end() ? 0 : it->second;
            if (n != 1)
                problems << QStringLiteral("row %1 written %2 times").arg(id).arg(n);
        }
        if (out.count.size() != std::size_t(rows))
            problems << QStringLiteral("%1 distinct ids, expected %2").arg(out.count.size()).arg(rows);
        return problems.mid(0, 5).join(QStringLiteral("; "));
    }

    QTemporaryDir m_dir;

private Q_SLOTS:
    void writesEveryRowOnceAndMarksInvalidOnes()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>()));
        load(engine);
        QSignalSpy status(&engine, &EngineController::bulkStatus);
        const quint64 id = engine.startBulk(request(writeInput(200)));
        QTRY_VERIFY_WITH_TIMEOUT(ended(status), kTimeoutMs);
        const BulkStatus s = last(status);
        QCOMPARE(s.jobId, id);
        QCOMPARE(s.progress.state, BulkState::Finished);
        QCOMPARE(s.progress.total, std::uint64_t(200));
        QCOMPARE(s.progress.ok, std::uint64_t(199));
        QCOMPARE(s.progress.invalid, std::uint64_t(1));

        const Output out = readOutput(request({}).output);
        QCOMPARE(everyRowOnce(out, 200), QString());
        QCOMPARE(out.status.at("3"), std::string("invalid"));
        QCOMPARE(out.status.at("200"), std::string("ok"));
    }

    void servesInteractiveRequestsWhileABulkJobRuns()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>(2)));
        load(engine);
        QSignalSpy status(&engine, &EngineController::bulkStatus);
        // 20,000 rows take at least 2,500 steps of 2 ms (16 rows of 6 steps
        // at a time): the job cannot end before a 5-token request unless
        // that request waits for it.
        const int rows = 20000;
        const quint64 job = engine.startBulk(request(writeInput(rows)));
        QTRY_VERIFY_WITH_TIMEOUT(!status.isEmpty() && last(status).progress.done() > 0, kTimeoutMs);

        // The job's state when the request's result arrives: signals from the
        // engine thread arrive in the order they were sent.
        bool jobEndedFirst = false;
        connect(&engine, &EngineController::requestFinished, this, [&] { jobEndedFirst = ended(status); });
        serveOne(engine, 5);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(!jobEndedFirst, "the interactive request waited for the bulk job");

        engine.cancelBulk(job);
        QTRY_VERIFY_WITH_TIMEOUT(ended(status), kTimeoutMs);
        QCOMPARE(last(status).progress.state, BulkState::Cancelled);
        QVERIFY(last(status).progress.done() < std::uint64_t(rows));
    }

    void pauseStopsNewRowsAndResumeFinishes()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>(2)));
        load(engine);
        QSignalSpy status(&engine, &EngineController::bulkStatus);
        const quint64 job = engine.startBulk(request(writeInput(3000)));
        QTRY_VERIFY_WITH_TIMEOUT(!status.isEmpty() && last(status).progress.done() > 0, kTimeoutMs);
        engine.pauseBulk(job);
        // Rows in flight still finish; then nothing moves, while the engine
        // runs: an interactive request is written from start to end (each of
        // its steps could have admitted bulk rows) and no row is done.
        QTRY_VERIFY_WITH_TIMEOUT(last(status).progress.state == BulkState::Paused
                                     && last(status).progress.inFlight == 0,
                                 kTimeoutMs);
        const auto doneWhilePaused = last(status).progress.done();
        serveOne(engine, 20);
        if (QTest::currentTestFailed())
            return;
        // Pausing again changes nothing and sends the job's current status.
        const auto statusesBefore = status.count();
        engine.pauseBulk(job);
        QTRY_VERIFY_WITH_TIMEOUT(status.count() > statusesBefore, kTimeoutMs);
        QCOMPARE(last(status).progress.done(), doneWhilePaused);
        QCOMPARE(last(status).progress.state, BulkState::Paused);
        QVERIFY(doneWhilePaused < 3000);

        engine.resumeBulk(job);
        QTRY_VERIFY_WITH_TIMEOUT(ended(status), kTimeoutMs);
        QCOMPARE(last(status).progress.state, BulkState::Finished);
        QCOMPARE(everyRowOnce(readOutput(request({}).output), 3000), QString());
    }
};

QTEST_GUILESS_MAIN(TestEngineBulk)
#include "test_engine_bulk.moc"
