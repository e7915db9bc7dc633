#include "studio_app.h"
#include "studio_test_util.h"
#include "model_backend.h"

#include "child_process.h"
#include "cli_under_test.h"
#include "redis_server.h"
#include "tiny_model.h"

#include "bulk/bulk_job_bar.h"
#include "bulk/csv_import_dialog.h"
#include "mainwindow/main_window.h"
#include "prompt/prompt_panel.h"
#include "queue/queue_model.h"

#include "csv_reader.h"

#include <nlohmann/json.hpp>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <map>

using namespace couplet;
using couplet::test::saveShot;
using couplet::test::ChildProcess;
using couplet::test::RedisServer;

namespace {

constexpr int kRows = 12;
constexpr int kTimeoutMs = 180000;

// id of each output row, counted.
std::map<std::string, int> outputIds(const QString& path)
{
    CsvReader reader(path.toStdString());
    std::map<std::string, int> ids;
    CsvRecord record;
    while (reader.next(record))
        ++ids[record.fields.at(0)];
    return ids;
}

bool eachRowOnce(const QString& path)
{
    const auto ids = outputIds(path);
    if (ids.size() != std::size_t(kRows))
        return false;
    for (int i = 1; i <= kRows; ++i) {
        const auto it = ids.find("r" + std::to_string(i));
        if (it == ids.end() || it->second != 1)
            return false;
    }
    return true;
}

} // namespace

// Bulk jobs from the app on `couplet worker` processes: the bulk dialog's
// "Run on: workers at redis://…", a real redis-server on a free loopback
// port (tests/cluster's RedisServer), a real worker on the tiny model, and
// the job bar showing what `couplet cluster status` shows.
class TestStudioCluster : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (!RedisServer::executable())
            QSKIP("redis-server is not installed (apt-get install redis-server)");
        try {
            m_cli = QString::fromStdString(testing::cliUnderTest());
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        m_model = m_dir.filePath(QStringLiteral("model"));
        testing::writeTinyModel(m_model.toStdString(), 7);
        m_input = m_dir.filePath(QStringLiteral("in.csv"));
        std::ofstream in(m_input.toStdString(), std::ios::binary);
        in << "id,关键词,字数\n";
        for (int i = 1; i <= kRows; ++i)
            in << 'r' << i << (i % 2 ? ",春风,5\n" : ",福,7\n");
    }

    void jobRunsOnAWorker()
    {
        RedisServer redis(path("redis-run"));
        StudioApp studio(&loadModelBackend);
        QVERIFY(showLoaded(studio));
        const auto worker = startWorker(redis, "w1");
        const QString output = m_dir.filePath(QStringLiteral("run-out.csv"));
        const quint64 id = studio.startBulk(importOnWorkers(QString::fromStdString(redis.url()), output));
        QueueModel* queue = studio.window()->queueModel();
        BulkJobBar* bar = studio.window()->bulkBar();
        QTRY_VERIFY_WITH_TIMEOUT(queue->entry(id)->isFinished(), kTimeoutMs);
        QCOMPARE(queue->entry(id)->state, QueueState::Done);
        saveShot(studio.window(), QStringLiteral("cluster-job-finished"));
        QVERIFY(eachRowOnce(output));
        const QString cluster = bar->clusterText();
        QVERIFY2(cluster.contains(QStringLiteral("1 live")), qPrintable(cluster));
        QVERIFY2(cluster.contains(QStringLiteral("w1")) && cluster.contains(QStringLiteral("%1 rows").arg(kRows)),
                 qPrintable(cluster));
        QVERIFY(bar->errorText().isEmpty());
        // `couplet cluster status` lists it, finished.
        const auto status = clusterStatus(redis);
        QCOMPARE(status["jobs"].size(), std::size_t{1});
        QVERIFY(status["jobs"][0]["finished"].get<bool>());
        QCOMPARE(status["jobs"][0]["done"].get<std::string>(), std::to_string(kRows));
    }

    void deadRedisPausesTheJobUntilResumed()
    {
        RedisServer redis(path("redis-dead"));
        redis.kill();
        StudioApp studio(&loadModelBackend);
        QVERIFY(showLoaded(studio));
        const QString output = m_dir.filePath(QStringLiteral("dead-out.csv"));
        const quint64 id = studio.startBulk(importOnWorkers(QString::fromStdString(redis.url()), output));
        BulkJobBar* bar = studio.window()->bulkBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->errorText().contains(QStringLiteral("cannot be reached")), kTimeoutMs);
        QVERIFY2(bar->errorText().contains(QString::fromStdString(redis.url())), qPrintable(bar->errorText()));
        QCOMPARE(bar->pauseButton()->text(), QStringLiteral("Resume"));
        QueueModel* queue = studio.window()->queueModel();
        QVERIFY(!queue->entry(id)->isFinished());
        QTRY_COMPARE_WITH_TIMEOUT(queue->entry(id)->state, QueueState::Paused, kTimeoutMs);   // the row says so too
        saveShot(studio.window(), QStringLiteral("cluster-redis-down"));
        QVERIFY(editorRequestFinishes(studio));   // the rest of the app goes on

        redis.start();
        const auto worker = startWorker(redis, "w2");
        bar->pauseButton()->click();   // Resume
        QTRY_VERIFY_WITH_TIMEOUT(queue->entry(id)->isFinished(), kTimeoutMs);
        QCOMPARE(queue->entry(id)->state, QueueState::Done);
        QVERIFY(bar->errorText().isEmpty());
        QVERIFY(eachRowOnce(output));
    }

    void dialogRemembersTheWorkers()
    {
        QSettings().clear();
        {
            CsvImportDialog dialog(m_input);
            QCOMPARE(dialog.runOnBox()->currentIndex(), 0);
            QVERIFY(dialog.import().redisUrl.isEmpty());
            dialog.runOnBox()->setCurrentIndex(1);
            dialog.redisUrlField()->setText(QStringLiteral("redis://nowhere:99999"));
            auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
            QVERIFY(!ok->isEnabled());   // a port out of range
            dialog.redisUrlField()->setText(QStringLiteral("redis://10.0.0.5:6380"));
            QVERIFY(ok->isEnabled());
            dialog.show();
            saveShot(&dialog, QStringLiteral("bulk-dialog-workers"));
            ok->click();
            QCOMPARE(dialog.import().redisUrl, QStringLiteral("redis://10.0.0.5:6380"));
        }
        CsvImportDialog again(m_input);
        QCOMPARE(again.runOnBox()->currentIndex(), 1);
        QCOMPARE(again.redisUrlField()->text(), QStringLiteral("redis://10.0.0.5:6380"));
    }

private:
    std::filesystem::path path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)).toStdString(); }

    bool showLoaded(StudioApp& studio) { return test::showLoaded(studio, m_model, kTimeoutMs); }

    // The dialog's choice, as a user makes it: workers at `url`.
    BulkImport importOnWorkers(const QString& url, const QString& output)
    {
        CsvImportDialog dialog(m_input);
        dialog.runOnBox()->setCurrentIndex(1);
        dialog.redisUrlField()->setText(url);
        BulkImport b = dialog.import();
        b.output = output;
        return b;
    }

    std::unique_ptr<ChildProcess> startWorker(const RedisServer& redis, const std::string& name)
    {
        const std::vector<std::string> args{m_cli.toStdString(), "worker", "--redis", redis.url(), "--name", name,
                                            "--model", m_model.toStdString(), "--device", "cpu", "--threads", "1",
                                            "--max-batch", "4", "--claim-idle-ms", "2000", "--heartbeat-ttl", "3"};
        return std::make_unique<ChildProcess>(args, path("worker.log"));
    }

    nlohmann::json clusterStatus(const RedisServer& redis)
    {
        const auto log = path("status.json");
        std::filesystem::remove(log);
        ChildProcess status({m_cli.toStdString(), "cluster", "status", "--redis", redis.url(), "--json"}, log);
        if (status.wait() != 0)
            return {};
        return nlohmann::json::parse(status.logText(), nullptr, false);
    }

    static bool editorRequestFinishes(StudioApp& studio) { return test::editorRequestFinishes(studio, kTimeoutMs); }

    QTemporaryDir m_dir;
    QString m_cli;
    QString m_model;
    QString m_input;
};

QTEST_MAIN(TestStudioCluster)
#include "test_studio_cluster.moc"
