#include "studio_app.h"
#include "model_backend.h"

#include "couplet_model.h"
#include "engine_controller.h"
#include "generate.h"

#include "tiny_model.h"

#include "editor/editor_view.h"
#include "history/history_model.h"
#include "history/history_panel.h"
#include "mainwindow/main_window.h"
#include "prompt/prompt_panel.h"
#include "queue/queue_model.h"

#include <QPushButton>
#include <QTableWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace couplet;

// The whole app over the real model code (loader, Transformer, constraints,
// scheduler, engine thread) with the tests' tiny random-weight model.
class TestStudioModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_modelDir = m_dir.filePath(QStringLiteral("model"));
        testing::writeTinyModel(m_modelDir.toStdString(), 7);
    }

    void generatesWithTheTinyModel()
    {
        StudioApp studio(&loadModelBackend);
        studio.setQuiet(true);
        MainWindow* window = studio.window();
        window->show();
        DeviceOptions cpu;
        cpu.device = "cpu";
        studio.loadModel(m_modelDir, cpu);
        auto* generate = window->promptPanel()->findChild<QPushButton*>();
        QTRY_VERIFY_WITH_TIMEOUT(generate->isEnabled(), 30000);

        QAbstractItemModel* history = window->history()->table()->model();
        const int historyBefore = history->rowCount();
        GenerationSpec spec;
        spec.mode = PromptMode::Keywords;
        spec.keywords = "春福";
        spec.length = 5;
        spec.candidates = 1;
        window->promptPanel()->setSpec(spec);
        window->promptPanel()->generate();

        QueueModel* queue = window->queueModel();
        QCOMPARE(queue->rowCount(), 1);
        const quint64 id = queue->idAt(0);
        QTRY_VERIFY_WITH_TIMEOUT(queue->entry(id)->isFinished(), 60000);
        QCOMPARE(queue->entry(id)->state, QueueState::Done);
        QCOMPARE(queue->entry(id)->error, QString());

        EditorView* editor = window->editor();
        QCOMPARE(editor->currentRequestId(), id);
        const CoupletText couplet = editor->candidate(0);
        // The constraints hold even with random weights: two lines of the
        // asked length, and a 横批.
        QCOMPARE(int(couplet.upper.size()), 5);
        QCOMPARE(int(couplet.lower.size()), 5);
        QVERIFY(!couplet.hengpi.isEmpty());

        QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), historyBefore + 1, 10000);
        QCOMPARE(history->index(0, HistoryModel::UpperColumn).data().toString(), couplet.upper);
        QCOMPARE(history->index(0, HistoryModel::LowerColumn).data().toString(), couplet.lower);
    }

    // Candidates from the editor are reranked as the CLI's are: four times as
    // many sampled (the hidden ones not streamed), the best kept by
    // CoupletScorer; so the editor shows what generateCouplets() returns.
    void editorCandidatesAreRerankedLikeTheCli()
    {
        GenerationSpec spec;
        spec.mode = PromptMode::Keywords;
        spec.keywords = "春福";
        spec.length = 5;
        spec.candidates = 2;
        spec.sampling.seed = 42;
        QVERIFY(spec.rerank);
        DeviceOptions cpu;
        cpu.device = "cpu";
        const auto model = CoupletModel::load(m_modelDir.toStdString(), cpu);
        auto decoder = model->makeDecoder();
        const auto want = generateCouplets(*model, *decoder, spec);
        QCOMPARE(int(want.size()), 2);

        StudioApp studio(&loadModelBackend);
        studio.setQuiet(true);
        MainWindow* window = studio.window();
        window->show();
        studio.loadModel(m_modelDir, cpu);
        auto* generate = window->promptPanel()->findChild<QPushButton*>();
        QTRY_VERIFY_WITH_TIMEOUT(generate->isEnabled(), 30000);
        QSignalSpy candidates(studio.engine(), &EngineController::candidateFinished);
        QSignalSpy requests(studio.engine(), &EngineController::requestFinished);
        window->promptPanel()->setSpec(spec);
        window->promptPanel()->generate();
        QTRY_COMPARE_WITH_TIMEOUT(requests.count(), 1, 60000);
        QCOMPARE(candidates.count(), 2);
        int shownTokens = 0;
        for (int i = 0; i < 2; ++i) {
            const auto c = candidates.at(i).at(0).value<CandidateResult>();
            QCOMPARE(c.candidate, i);
            QCOMPARE(c.outcome, Outcome::Done);
            QCOMPARE(c.upper.toStdString(), want[std::size_t(i)].upper);
            QCOMPARE(c.lower.toStdString(), want[std::size_t(i)].lower);
            QCOMPARE(c.hengpi.toStdString(), want[std::size_t(i)].hengpi);
            QCOMPARE(c.score, want[std::size_t(i)].score);
            // Its score parts are the CLI's and add up to the score; the score cell explains them.
            QVERIFY(c.reranked);
            QCOMPARE(c.parts.logProb, want[std::size_t(i)].parts.logProb);
            QCOMPARE(c.parts.duizhang, want[std::size_t(i)].parts.duizhang);
            QVERIFY(std::abs(c.parts.total() - c.score) < 1e-9);
            const auto* cell = window->editor()->findChild<QTableWidget*>()->item(i, EditorView::LineCount);
            QVERIFY(cell);
            QCOMPARE(cell->toolTip(), EditorView::explainScore(c.score, c.parts));
            QVERIFY(cell->toolTip().contains(QStringLiteral("对仗")));
            shownTokens += c.tokens;
        }
        // Eight were written: the request's tokens count all of them.
        const auto summary = requests.at(0).at(0).value<RequestSummary>();
        QVERIFY(summary.tokens > 3 * shownTokens);
        QCOMPARE(window->editor()->candidate(0).upper.toStdString(), want[0].upper);
    }

private:
    QTemporaryDir m_dir;
    QString m_modelDir;
};

QTEST_MAIN(TestStudioModel)
#include "test_studio_model.moc"
