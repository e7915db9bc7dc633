#include "studio_app.h"
#include "fake_backend.h"

#include "editor/editor_view.h"
#include "history/history_model.h"
#include "history/history_panel.h"
#include "mainwindow/main_window.h"
#include "preview/couplet_preview.h"
#include "prompt/prompt_panel.h"
#include "queue/queue_model.h"

#include "history/history_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace couplet;

namespace {

// Shows the window and loads the fake model; the window once it can generate.
MainWindow* showLoaded(StudioApp& studio)
{
    studio.setQuiet(true);
    MainWindow* window = studio.window();
    window->show();
    studio.loadModel(QStringLiteral("fake"));
    auto* generate = window->promptPanel()->findChild<QPushButton*>();
    if (!QTest::qWaitFor([generate] { return generate->isEnabled(); }, 10000))
        QTest::qFail("the fake model did not load", __FILE__, __LINE__);
    return window;
}

// The files a damaged history was moved to, next to the history itself.
QStringList damagedHistories()
{
    const QFileInfo history(HistoryStore::defaultPath());
    return history.dir().entryList({history.fileName() + QStringLiteral(".damaged-*")}, QDir::Files);
}

void removeHistories()
{
    const QFileInfo history(HistoryStore::defaultPath());
    for (const QString& name : history.dir().entryList({history.fileName() + QStringLiteral("*")}, QDir::Files))
        QFile::remove(history.dir().filePath(name));
}

// A damaged history file: the app starts on it, says so once, keeps the file aside and records
// new couplets in a new history.
void startsOnADamagedHistory(const QByteArray& damaged)
{
    removeHistories();
    QDir().mkpath(QFileInfo(HistoryStore::defaultPath()).absolutePath());
    QFile file(HistoryStore::defaultPath());
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(damaged);
    file.close();

    StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>()));
    const QString message = studio.window()->statusBar()->currentMessage();
    QVERIFY2(message.contains(QStringLiteral("could not be read")), qPrintable(message));
    const QStringList aside = damagedHistories();
    QCOMPARE(aside.size(), 1);
    QVERIFY(message.contains(aside.first()));
    QFile kept(QFileInfo(HistoryStore::defaultPath()).dir().filePath(aside.first()));
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), damaged);

    MainWindow* window = showLoaded(studio);
    GenerationSpec spec;
    spec.keywords = "春";
    spec.length = 5;
    window->promptPanel()->setSpec(spec);
    window->promptPanel()->generate();
    QAbstractItemModel* history = window->history()->table()->model();
    QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), 1, 10000);
    QCOMPARE(history->index(0, HistoryModel::HengpiColumn).data().toString(), QStringLiteral("四字横批"));
}

} // namespace

class TestStudioApp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup() { removeHistories(); }

    void startsWhenTheHistoryIsRandomBytes()
    {
        QByteArray noise(4096, Qt::Uninitialized);
        QRandomGenerator random(42);
        for (char& c : noise)
            c = char(random.bounded(256));
        startsOnADamagedHistory(noise);
    }

    void startsWhenTheHistoryIsTruncated()
    {
        removeHistories();
        {
            HistoryStore store;
            QCOMPARE(store.open(), QString());
            for (int i = 0; i < 3000; ++i) {
                HistoryEntry e;
                e.couplet = {QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户新"), QStringLiteral("万象更新")};
                e.prompt = QStringLiteral("关键词: 春 %1").arg(i);
                e.created = QDateTime::currentDateTime();
                store.add(e);
            }
            QVERIFY(store.flush());
        }
        QFile file(HistoryStore::defaultPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray whole = file.readAll();
        file.close();
        QVERIFY(whole.size() > 64 * 1024);
        startsOnADamagedHistory(whole.left(whole.size() / 2));
    }

    void reloadEndsTheRequestsItInterrupts()
    {
        StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>(3)));
        MainWindow* window = showLoaded(studio);
        GenerationSpec spec;
        spec.keywords = "春";
        spec.length = 200;
        QList<quint64> ids;
        for (int i = 0; i < 3; ++i)
            ids << studio.submit(spec);
        QueueModel* queue = window->queueModel();
        QTRY_COMPARE_WITH_TIMEOUT(queue->entry(ids.first())->state, QueueState::Running, 10000);

        studio.loadModel(QStringLiteral("fake"));
        for (quint64 id : ids)
            QTRY_COMPARE_WITH_TIMEOUT(queue->entry(id)->state, QueueState::Cancelled, 10000);
        QCOMPARE(studio.trackedCount(), 0);
    }

    void generatedCoupletReachesEditorQueueAndHistory()
    {
        StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>(1)));
        MainWindow* window = showLoaded(studio);

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

    void aFailedRequestSaysWhyInOneRow()
    {
        StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>(1)));
        MainWindow* window = showLoaded(studio);
        GenerationSpec spec;
        spec.keywords = "fail"; // the fake's policies throw at their third token
        spec.length = 5;
        spec.candidates = 3;
        const quint64 id = studio.submit(spec);
        EditorView* editor = window->editor();
        QCOMPARE(editor->candidateCount(), 3);
        QTRY_COMPARE_WITH_TIMEOUT(window->queueModel()->entry(id)->state, QueueState::Failed, 10000);
        QCOMPARE(editor->candidateCount(), 1);
        auto* table = editor->findChild<QTableWidget*>();
        QVERIFY(table->item(0, 0)->text().contains(QStringLiteral("policy failed at token 2")));
        QVERIFY(window->statusBar()->currentMessage().contains(QStringLiteral("policy failed at token 2")));
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
