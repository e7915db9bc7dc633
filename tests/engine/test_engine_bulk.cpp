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

    static BulkStatus last(const QSignalSpy& spy) { return spy.last().at(0).value<BulkStatus>(); }

    static bool ended(const QSignalSpy& spy)
    {
        if (spy.isEmpty())
            return false;
        const BulkState state = last(spy).progress.state;
        return state == BulkState::Finished || state == BulkState::Cancelled || state == BulkState::Failed;
    }

    // id -> status of every output row.
    static std::map<std::string, std::string> readOutput(const QString& path)
    {
        CsvReader reader(path.toStdString());
        const auto& header = reader.header();
        const auto statusColumn = std::size_t(std::find(header.begin(), header.end(), "status") - header.begin());
        std::map<std::string, std::string> rows;
        CsvRecord record;
        while (reader.next(record))
            rows[record.fields.at(0)] = record.fields.at(statusColumn);
        return rows;
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

        const auto rows = readOutput(request({}).output);
        QCOMPARE(rows.size(), std::size_t(200));
        QCOMPARE(rows.at("3"), std::string("invalid"));
        QCOMPARE(rows.at("200"), std::string("ok"));
    }

    void servesInteractiveRequestsWhileABulkJobRuns()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>(2)));
        load(engine);
        QSignalSpy status(&engine, &EngineController::bulkStatus);
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        const quint64 job = engine.startBulk(request(writeInput(3000)));
        QTRY_VERIFY_WITH_TIMEOUT(!status.isEmpty() && last(status).progress.done() > 0, kTimeoutMs);

        GenerationSpec spec;
        spec.keywords = "福";
        spec.length = 5;
        engine.submit(spec);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QCOMPARE(finished.at(0).at(0).value<RequestSummary>().outcome, Outcome::Done);
        // The interactive request did not wait for the job.
        QVERIFY(!ended(status));

        engine.cancelBulk(job);
        QTRY_VERIFY_WITH_TIMEOUT(ended(status), kTimeoutMs);
        QCOMPARE(last(status).progress.state, BulkState::Cancelled);
        QVERIFY(last(status).progress.done() < 3000);
    }

    void pauseStopsNewRowsAndResumeFinishes()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>(2)));
        load(engine);
        QSignalSpy status(&engine, &EngineController::bulkStatus);
        const quint64 job = engine.startBulk(request(writeInput(3000)));
        QTRY_VERIFY_WITH_TIMEOUT(!status.isEmpty() && last(status).progress.done() > 0, kTimeoutMs);
        engine.pauseBulk(job);
        // Rows in flight still finish; then nothing moves.
        QTRY_VERIFY_WITH_TIMEOUT(last(status).progress.state == BulkState::Paused
                                     && last(status).progress.inFlight == 0,
                                 kTimeoutMs);
        const auto doneWhilePaused = last(status).progress.done();
        QTest::qWait(300);
        QCOMPARE(last(status).progress.done(), doneWhilePaused);
        QVERIFY(doneWhilePaused < 3000);

        engine.resumeBulk(job);
        QTRY_VERIFY_WITH_TIMEOUT(ended(status), kTimeoutMs);
        QCOMPARE(last(status).progress.state, BulkState::Finished);
        QCOMPARE(readOutput(request({}).output).size(), std::size_t(3000));
    }
};

QTEST_GUILESS_MAIN(TestEngineBulk)
#include "test_engine_bulk.moc"
