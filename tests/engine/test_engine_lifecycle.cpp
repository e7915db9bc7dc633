#include "fake_backend.h"

#include "csv_reader.h"
#include "engine_controller.h"

#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <stdexcept>

using namespace couplet;
using couplet::test::FakeBackend;

namespace {

// The fake whose second candidate's policy cannot be made.
class PolicyFailingBackend : public FakeBackend {
public:
    std::unique_ptr<TokenPolicy> makePolicy(const GenerationSpec& spec, int index) const override
    {
        if (index == 1)
            throw std::runtime_error("no policy for candidate 1");
        return FakeBackend::makePolicy(spec, index);
    }
};

GenerationSpec spec(const char* keywords, int length, int candidates = 1)
{
    GenerationSpec s;
    s.keywords = keywords;
    s.length = length;
    s.candidates = candidates;
    s.rerank = false;   // one sampled candidate per couplet: the tests count them
    return s;
}

} // namespace

// What happens to work in flight when the model is reloaded, a policy cannot
// be made, or an auto-tune runs: every request and job hears how it ended.
class TestEngineLifecycle : public QObject {
    Q_OBJECT
private:
    static constexpr int kTimeoutMs = 30000;

    static void load(EngineController& engine)
    {
        QSignalSpy loaded(&engine, &EngineController::modelLoaded);
        engine.loadModel(QStringLiteral("fake"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    }

    static BulkStatus last(const QSignalSpy& spy) { return spy.last().at(0).value<BulkStatus>(); }

    // id,关键词 with `rows` rows.
    QString writeInput(int rows)
    {
        const QString path = m_dir.filePath(QStringLiteral("prompts.csv"));
        std::ofstream out(path.toStdString(), std::ios::binary);
        out << "id,关键词\n";
        for (int r = 1; r <= rows; ++r)
            out << r << ",春\n";
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

    QTemporaryDir m_dir;

private Q_SLOTS:
    void reloadCancelsEveryRequestInFlight()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>(3)));
        load(engine);
        QSignalSpy chunks(&engine, &EngineController::textChunks);
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        QSet<quint64> ids;
        for (int i = 0; i < 6; ++i)
            ids.insert(engine.submit(spec("春", 100, 2)));
        QTRY_VERIFY_WITH_TIMEOUT(chunks.count() > 0, kTimeoutMs);

        QSignalSpy loaded(&engine, &EngineController::modelLoaded);
        engine.loadModel(QStringLiteral("fake"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 6, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
        QSet<quint64> seen;
        for (int i = 0; i < finished.count(); ++i) {
            const auto s = finished.at(i).at(0).value<RequestSummary>();
            QCOMPARE(s.outcome, Outcome::Cancelled);
            seen.insert(s.requestId);
        }
        QCOMPARE(seen, ids);

        // The new model serves new requests.
        engine.submit(spec("福", 5));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 7, kTimeoutMs);
        QCOMPARE(finished.last().at(0).value<RequestSummary>().outcome, Outcome::Done);
    }

    void reloadPausesABulkJobThatResumesOnTheNewModel()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>(2)));
        load(engine);
        QSignalSpy status(&engine, &EngineController::bulkStatus);
        const quint64 job = engine.startBulk(request(writeInput(1500)));
        QTRY_VERIFY_WITH_TIMEOUT(!status.isEmpty() && last(status).progress.done() > 0, kTimeoutMs);

        QSignalSpy loaded(&engine, &EngineController::modelLoaded);
        engine.loadModel(QStringLiteral("fake"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(last(status).progress.state == BulkState::Paused, kTimeoutMs);
        const BulkStatus paused = last(status);
        QCOMPARE(paused.jobId, job);
        QCOMPARE(paused.progress.inFlight, std::uint64_t(0));
        QVERIFY(paused.progress.done() < 1500);

        engine.resumeBulk(job);
        QTRY_VERIFY_WITH_TIMEOUT(last(status).progress.state == BulkState::Finished, kTimeoutMs);
        QCOMPARE(last(status).jobId, job);
        QVERIFY(last(status).resumed);
        QCOMPARE(last(status).progress.ok, std::uint64_t(1500));
        // Every input row exactly once.
        CsvReader reader(request({}).output.toStdString());
        QSet<QString> rows;
        CsvRecord record;
        while (reader.next(record))
            rows.insert(QString::fromStdString(record.fields.at(0)));
        QCOMPARE(reader.recordsRead(), std::uint64_t(1500));
        QCOMPARE(rows.size(), 1500);
    }

    void aPolicyThatCannotBeMadeFailsTheWholeRequest()
    {
        EngineController engine(test::fakeLoader(std::make_shared<PolicyFailingBackend>()));
        load(engine);
        QSignalSpy chunks(&engine, &EngineController::textChunks);
        QSignalSpy candidates(&engine, &EngineController::candidateFinished);
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        const quint64 id = engine.submit(spec("春", 5, 3));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        const auto s = finished.at(0).at(0).value<RequestSummary>();
        QCOMPARE(s.requestId, id);
        QCOMPARE(s.outcome, Outcome::Failed);
        QVERIFY(s.error.contains(QStringLiteral("no policy for candidate 1")));
        QCOMPARE(candidates.count(), 3);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(candidates.at(i).at(0).value<CandidateResult>().outcome, Outcome::Failed);

        // Nothing of it ran, and the engine goes on.
        engine.submit(spec("福", 5));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kTimeoutMs);
        QCOMPARE(finished.at(1).at(0).value<RequestSummary>().outcome, Outcome::Done);
        for (int i = 0; i < chunks.count(); ++i)
            for (const TextChunk& c : chunks.at(i).at(0).value<QList<TextChunk>>())
                QVERIFY(c.requestId != id);
    }

    void requestsDuringAutoTuneAreRefusedAtOnce()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>(2)));
        load(engine);
        QSignalSpy points(&engine, &EngineController::autoTunePoint);
        QSignalSpy done(&engine, &EngineController::autoTuneFinished);
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        engine.runAutoTune({1, 2, 4});
        engine.submit(spec("春", 5));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        const auto s = finished.at(0).at(0).value<RequestSummary>();
        QCOMPARE(s.outcome, Outcome::Failed);
        QVERIFY2(s.error.contains(QStringLiteral("Auto-tune")), qPrintable(s.error));
        QCOMPARE(done.count(), 0);   // refused while the sweep ran, not after it

        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
        QCOMPARE(done.at(0).at(0).toString(), QString());
        QCOMPARE(points.count(), 3);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(points.at(i).at(0).value<AutoTuneResult>().batch, 1 << i);
    }

    void cancelAllStopsAnAutoTune()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>(4)));
        load(engine);
        QSignalSpy points(&engine, &EngineController::autoTunePoint);
        QSignalSpy done(&engine, &EngineController::autoTuneFinished);
        engine.runAutoTune({1, 1, 1, 1, 1, 1, 1, 1});
        QTRY_COMPARE_WITH_TIMEOUT(points.count(), 1, kTimeoutMs);
        engine.cancelAll();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
        QVERIFY(!done.at(0).at(0).toString().isEmpty());
        QVERIFY2(points.count() < 8, qPrintable(QString::number(points.count())));

        // The engine is free again, with its own settings back.
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        engine.submit(spec("福", 5));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QCOMPARE(finished.at(0).at(0).value<RequestSummary>().outcome, Outcome::Done);
    }
};

QTEST_GUILESS_MAIN(TestEngineLifecycle)
#include "test_engine_lifecycle.moc"
