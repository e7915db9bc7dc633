#include "studio_app.h"
#include "model_backend.h"

#include "tiny_model.h"

#include "editor/editor_view.h"
#include "history/history_model.h"
#include "history/history_panel.h"
#include "mainwindow/main_window.h"
#include "prompt/prompt_panel.h"
#include "queue/queue_model.h"

#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

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

private:
    QTemporaryDir m_dir;
    QString m_modelDir;
};

QTEST_MAIN(TestStudioModel)
#include "test_studio_model.moc"
