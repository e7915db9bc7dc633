#include "studio_app.h"
#include "fake_backend.h"

#include "editor/editor_view.h"
#include "history/history_model.h"
#include "history/history_panel.h"
#include "mainwindow/main_window.h"
#include "preview/couplet_preview.h"
#include "prompt/prompt_panel.h"
#include "queue/queue_model.h"

#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace couplet;

class TestStudioApp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void generatedCoupletReachesEditorQueueAndHistory()
    {
        StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>(1)));
        studio.setQuiet(true);
        MainWindow* window = studio.window();
        window->show();
        studio.loadModel(QStringLiteral("fake"));
        auto* generate = window->promptPanel()->findChild<QPushButton*>();
        QTRY_VERIFY_WITH_TIMEOUT(generate->isEnabled(), 10000);

        const int historyBefore = window->history()->table()->model()->rowCount();
        GenerationSpec spec;
        spec.keywords = "春";
        spec.length = 5;
        spec.candidates = 2;
        window->promptPanel()->setSpec(spec);
        window->promptPanel()->generate();

        QueueModel* queue = window->queueModel();
        QCOMPARE(queue->rowCount(), 1);
        const quint64 id = queue->idAt(0);
        QTRY_COMPARE_WITH_TIMEOUT(queue->entry(id)->state, QueueState::Done, 10000);
        QCOMPARE(queue->entry(id)->progress, 1.0);

        EditorView* editor = window->editor();
        QCOMPARE(editor->currentRequestId(), id);
        QCOMPARE(editor->candidateCount(), 2);
        // The fake writes its token ids into the 上联 and the token count into the 下联.
        QCOMPARE(editor->candidate(0).lower, QStringLiteral("5"));
        QCOMPARE(editor->candidate(1).hengpi, QStringLiteral("四字横批"));
        QCOMPARE(window->preview()->couplet(), editor->currentCouplet());

        QAbstractItemModel* history = window->history()->table()->model();
        QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), historyBefore + 2, 10000);
        QCOMPARE(history->index(0, HistoryModel::HengpiColumn).data().toString(), QStringLiteral("四字横批"));
    }

    void showsWhyTheModelIsMissing()
    {
        StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>()));
        studio.setQuiet(true);
        studio.window()->show();
        studio.loadModel(QStringLiteral("missing"));
        auto* generate = studio.window()->promptPanel()->findChild<QPushButton*>();
        QTRY_VERIFY_WITH_TIMEOUT(generate->toolTip().contains(QStringLiteral("config.json")), 10000);
        QVERIFY(!generate->isEnabled());
    }
};

QTEST_MAIN(TestStudioApp)
#include "test_studio_app.moc"
