#include "fake_backend.h"

#include "engine_controller.h"
#include "engine_worker.h"

#include <QElapsedTimer>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

using namespace couplet;
using couplet::test::FakeBackend;

class TestEngineWorker : public QObject {
    Q_OBJECT
private:
    static constexpr int kTimeoutMs = 20000;

    static GenerationSpec spec(const char* keywords, int length, int candidates = 1)
    {
        GenerationSpec s;
        s.keywords = keywords;
        s.length = length;
        s.candidates = candidates;
        // One sampled candidate per couplet: these tests count sequences and
        // tokens (test_doors_agree covers the reranked editor on the real model).
        s.rerank = false;
        return s;
    }

    static void load(EngineController& engine, const EngineSettings& settings = {})
    {
        QSignalSpy loaded(&engine, &EngineController::modelLoaded);
        engine.setSettings(settings);
        engine.loadModel(QStringLiteral("fake"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    }

    static QList<TextChunk> chunksOf(const QSignalSpy& spy, int index)
    {
        return spy.at(index).at(0).value<QList<TextChunk>>();
    }

private Q_SLOTS:
    void reportsALoadFailureAndStaysUsable()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>()));
        QSignalSpy failed(&engine, &EngineController::modelLoadFailed);
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        engine.loadModel(QStringLiteral("missing"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("config.json")));

        engine.submit(spec("春", 5));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QCOMPARE(finished.at(0).at(0).value<RequestSummary>().outcome, Outcome::Failed);

        QSignalSpy loaded(&engine, &EngineController::modelLoaded);
        engine.loadModel(QStringLiteral("fake"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
        QCOMPARE(loaded.at(0).at(0).toString(), QStringLiteral("fake"));
    }

    void batchesDeltasIntoFewSignals()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>(2)));
        load(engine, {4, 0, 2048, 0});
        QSignalSpy chunks(&engine, &EngineController::textChunks);
        QSignalSpy candidates(&engine, &EngineController::candidateFinished);
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        QElapsedTimer clock;
        clock.start();
        const quint64 id = engine.submit(spec("春", 60, 4));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        const qint64 elapsedMs = clock.elapsed();
        QCOMPARE(candidates.count(), 4);

        QHash<int, QString> streamed;
        for (int i = 0; i < chunks.count(); ++i) {
            for (const TextChunk& c : chunksOf(chunks, i)) {
                QCOMPARE(c.requestId, id);
                streamed[c.candidate] = c.upper;   // the lines so far replace the last chunk's
            }
        }
        int tokens = 0;
        QStringList written, ranked;
        for (int i = 0; i < candidates.count(); ++i) {
            const auto r = candidates.at(i).at(0).value<CandidateResult>();
            QCOMPARE(r.outcome, Outcome::Done);
            QCOMPARE(r.tokens, 60);
            ranked.append(r.upper);
            written.append(streamed.value(i));
            tokens += r.tokens;
        }
        // The fake writes tokens into the 上联: the ranked couplets are the streamed ones, best first.
        written.sort();
        ranked.sort();
        QCOMPARE(ranked, written);
        const auto summary = finished.at(0).at(0).value<RequestSummary>();
        QCOMPARE(summary.outcome, Outcome::Done);
        QCOMPARE(summary.tokens, 240);
        QVERIFY(summary.tokensPerSecond > 0);
        // The text goes out at most once per flush interval, plus once before
        // each candidate's result and once when the work runs out, however
        // slow the steps are (a busy machine): not once per token or step.
        const qint64 bound = elapsedMs / EngineWorker::kFlushIntervalMs + 4 + 1;
        QVERIFY2(chunks.count() <= bound, qPrintable(QStringLiteral("%1 signals for %2 tokens in %3 ms")
                                                         .arg(chunks.count()).arg(tokens).arg(elapsedMs)));
    }

    static QHash<quint64, RequestSummary> summaries(const QSignalSpy& finished)
    {
        QHash<quint64, RequestSummary> byId;
        for (int i = 0; i < finished.count(); ++i) {
            const auto s = finished.at(i).at(0).value<RequestSummary>();
            byId.insert(s.requestId, s);
        }
        return byId;
    }

    // Ids of the finished requests with this outcome.
    static QSet<quint64> withOutcome(const QSignalSpy& finished, Outcome outcome)
    {
        QSet<quint64> ids;
        for (const RequestSummary& s : summaries(finished))
            if (s.outcome == outcome)
                ids.insert(s.requestId);
        return ids;
    }

    void cancelStopsOneWaitingOneRunningThenAll()
    {
        // One slot and 120 tokens of at least 3 ms each: a request runs for
        // 360 ms or more, and the last one cannot start for over 3 s.
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>(3)));
        load(engine, {1, 0, 2048, 0});
        QSignalSpy chunks(&engine, &EngineController::textChunks);
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        QList<quint64> ids;
        for (int i = 0; i < 10; ++i)
            ids << engine.submit(spec("春", 120));
        QTRY_VERIFY_WITH_TIMEOUT(chunks.count() > 0, kTimeoutMs);

        // A waiting request, alone: it ends cancelled without a token, and
        // nothing else is cancelled.
        engine.cancel(ids.at(9));
        QTRY_VERIFY_WITH_TIMEOUT(summaries(finished).contains(ids.at(9)), kTimeoutMs);
        QCOMPARE(summaries(finished).value(ids.at(9)).outcome, Outcome::Cancelled);
        QCOMPARE(summaries(finished).value(ids.at(9)).tokens, 0);
        QCOMPARE(withOutcome(finished, Outcome::Cancelled), QSet<quint64>{ids.at(9)});

        // The running request, alone, early in its 120 tokens: it stops
        // there, and the next one starts.
        QTRY_VERIFY_WITH_TIMEOUT(chunksOf(chunks, int(chunks.count()) - 1).last().tokens <= 40, kTimeoutMs);
        const quint64 running = chunksOf(chunks, int(chunks.count()) - 1).last().requestId;
        engine.cancel(running);
        QTRY_VERIFY_WITH_TIMEOUT(summaries(finished).contains(running), kTimeoutMs);
        QCOMPARE(summaries(finished).value(running).outcome, Outcome::Cancelled);
        QVERIFY(summaries(finished).value(running).tokens < 120);
        QCOMPARE(withOutcome(finished, Outcome::Cancelled), (QSet<quint64>{ids.at(9), running}));
        QTRY_VERIFY_WITH_TIMEOUT(chunksOf(chunks, int(chunks.count()) - 1).last().requestId > running, kTimeoutMs);

        // Then all the others at once: the one running and those waiting
        // (ids[8] waits for at least six requests of 360 ms).
        engine.cancelAll();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 10, kTimeoutMs);
        const auto byId = summaries(finished);
        QCOMPARE(byId.size(), 10);
        QCOMPARE(withOutcome(finished, Outcome::Failed), QSet<quint64>());
        QCOMPARE(byId.value(ids.at(8)).outcome, Outcome::Cancelled);
        QCOMPARE(byId.value(ids.at(8)).tokens, 0);
    }

    void appliesSettingsWhileRunning()
    {
        auto backend = std::make_shared<FakeBackend>(2);
        EngineController engine(test::fakeLoader(backend));
        load(engine, {1, 0, 2048, 0});
        QSignalSpy chunks(&engine, &EngineController::textChunks);
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        engine.submit(spec("春", 100, 6));
        QTRY_VERIFY_WITH_TIMEOUT(chunks.count() > 0, kTimeoutMs);
        QCOMPARE(chunksOf(chunks, 0).size(), 1);   // one slot: one candidate at a time
        engine.setSettings({6, 0, 2048, 3});
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        qsizetype widest = 0;
        for (int i = 0; i < chunks.count(); ++i)
            widest = std::max(widest, chunksOf(chunks, i).size());
        QVERIFY2(widest >= 2, "a larger max_batch should decode candidates together");
        QCOMPARE(backend->threadsSet.load(), 3);
    }

    void oneFailureDoesNotStopOthers()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>()));
        load(engine);
        QSignalSpy finished(&engine, &EngineController::requestFinished);
        const quint64 good1 = engine.submit(spec("春", 10));
        const quint64 failing = engine.submit(spec("fail", 10));
        const quint64 invalid = engine.submit(spec("bad", 10));
        const quint64 good2 = engine.submit(spec("福", 10));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 4, kTimeoutMs);
        QHash<quint64, RequestSummary> byId;
        for (int i = 0; i < finished.count(); ++i) {
            const auto s = finished.at(i).at(0).value<RequestSummary>();
            byId.insert(s.requestId, s);
        }
        QCOMPARE(byId.value(good1).outcome, Outcome::Done);
        QCOMPARE(byId.value(good2).outcome, Outcome::Done);
        QCOMPARE(byId.value(failing).outcome, Outcome::Failed);
        QVERIFY(byId.value(failing).error.contains(QStringLiteral("policy failed")));
        QCOMPARE(byId.value(invalid).outcome, Outcome::Failed);
        QVERIFY(byId.value(invalid).error.contains(QStringLiteral("bad")));
    }

    void autoTuneMeasuresEachBatchSize()
    {
        EngineController engine(test::fakeLoader(std::make_shared<FakeBackend>()));
        load(engine);
        QSignalSpy points(&engine, &EngineController::autoTunePoint);
        QSignalSpy done(&engine, &EngineController::autoTuneFinished);
        engine.runAutoTune({1, 2, 4});
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
        QCOMPARE(done.at(0).at(0).toString(), QString());
        QCOMPARE(points.count(), 3);
        for (int i = 0; i < 3; ++i) {
            const auto p = points.at(i).at(0).value<AutoTuneResult>();
            QCOMPARE(p.batch, 1 << i);
            QVERIFY(p.tokensPerSecond > 0);
            QVERIFY(p.coupletsPerSecond > 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestEngineWorker)
#include "test_engine_worker.moc"
