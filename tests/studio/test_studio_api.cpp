#include "studio_app.h"
#include "studio_test_util.h"
#include "fake_backend.h"
#include "model_backend.h"

#include "tiny_model.h"

#include "mainwindow/main_window.h"
#include "prompt/prompt_panel.h"
#include "queue/queue_model.h"
#include "queue/queue_view.h"
#include "settings/api_server_dialog.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <mutex>

using namespace couplet;
using couplet::test::saveShot;
using json = nlohmann::json;

namespace {

constexpr int kTimeoutMs = 60000;

// A socket listening on a free loopback port: another program holding it.
class PortHolder {
public:
    PortHolder()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof a;
        if (::bind(m_fd, reinterpret_cast<sockaddr*>(&a), size) != 0 || ::listen(m_fd, 4) != 0
            || ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&a), &size) != 0)
            qFatal("cannot listen on a loopback port");
        m_port = ntohs(a.sin_port);
    }
    ~PortHolder() { ::close(m_fd); }
    int port() const { return m_port; }

private:
    int m_fd = -1;
    int m_port = 0;
};

int freePort() { return PortHolder().port(); }

bool showLoaded(StudioApp& studio, const QString& dir) { return test::showLoaded(studio, dir, kTimeoutMs); }

// Turns the server on as a user does: the port, then the check box.
void turnOn(ApiServerDialog* dialog, int port)
{
    dialog->show();
    dialog->portBox()->setValue(port);
    dialog->enableBox()->click();
}

// The queue's API rows.
QList<quint64> apiRows(const QueueModel* queue)
{
    QList<quint64> ids;
    for (int row = 0; row < queue->rowCount(); ++row)
        if (queue->entry(queue->idAt(row))->api)
            ids << queue->idAt(row);
    return ids;
}

bool editorRequestFinishes(StudioApp& studio) { return test::editorRequestFinishes(studio, kTimeoutMs); }

// A streamed completion on its own thread; what came so far.
class StreamingClient {
public:
    explicit StreamingClient(int port)
        : m_thread([this, port] {
              httplib::Client c("127.0.0.1", port);
              c.set_read_timeout(60);
              httplib::Request req;
              req.method = "POST";
              req.path = "/v1/completions";
              // best_of 1: the one candidate streams live (a reranked choice arrives whole at its end).
              req.body = json{{"prompt", "七言春联，关于春风"}, {"stream", true}, {"best_of", 1}}.dump();
              req.set_header("Content-Type", "application/json");
              req.content_receiver = [this](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
                  std::lock_guard lock(m_mutex);
                  m_received.append(data, size);
                  return true;
              };
              c.send(req);
              m_ended = true;
          })
    {
    }
    ~StreamingClient() { m_thread.join(); }

    std::string text() const
    {
        std::lock_guard lock(m_mutex);
        return m_received;
    }
    bool ended() const { return m_ended; }
    // The server said why it ended the stream, and ended it as a stream ends.
    bool endedAsAStream() const
    {
        const std::string t = text();
        return t.find("server_stopping") != std::string::npos && t.find("data: [DONE]") != std::string::npos;
    }

private:
    mutable std::mutex m_mutex;
    std::string m_received;
    std::atomic<bool> m_ended{false};
    std::thread m_thread;
};

} // namespace

// The app's local API server: the same ApiServer as `couplet serve`, over the
// app's engine thread, driven through Settings > Local API server, with real
// HTTP clients (cpp-httplib) on their own threads while the event loop runs.
class TestStudioApi : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        m_modelDir = m_dir.filePath(QStringLiteral("model"));
        testing::writeTinyModel(m_modelDir.toStdString(), 7);
    }

    void init() { QSettings().clear(); }

    void completionIsAnApiQueueItem()
    {
        StudioApp studio(&loadModelBackend);
        QVERIFY(showLoaded(studio, m_modelDir));
        ApiServerDialog* dialog = studio.window()->apiServerDialog();
        QVERIFY(!dialog->isRunning());   // off by default
        const int port = freePort();
        turnOn(dialog, port);
        QVERIFY2(dialog->isRunning(), qPrintable(dialog->statusLabel()->text()));
        QCOMPARE(dialog->urlField()->text(), QStringLiteral("http://127.0.0.1:%1/v1").arg(port));
        QVERIFY(QSettings().value(QStringLiteral("api/enabled")).toBool());

        QSignalSpy stats(studio.engine(), &EngineController::statsUpdated);
        auto reply = std::async(std::launch::async, [port] {
            httplib::Client client("127.0.0.1", port);
            client.set_read_timeout(60);
            const json body{{"prompt", "生成一副关于春风的五言春联"}, {"seed", 3}};
            const auto res = client.Post("/v1/completions", body.dump(), "application/json");
            return res ? std::make_pair(res->status, res->body) : std::make_pair(-1, std::string());
        });
        QVERIFY(QTest::qWaitFor([&] { return reply.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
                                kTimeoutMs));
        const auto [status, body] = reply.get();
        QCOMPARE(status, 200);
        const json j = json::parse(body);
        const std::string text = j["choices"][0]["text"];
        QVERIFY2(text.rfind("上联：", 0) == 0 && text.find("\n下联：") != std::string::npos, text.c_str());
        QCOMPARE(j["understood"][0]["length"].get<int>(), 5);

        QueueModel* queue = studio.window()->queueModel();
        QTRY_COMPARE_WITH_TIMEOUT(apiRows(queue).size(), 1, kTimeoutMs);
        const quint64 id = apiRows(queue).first();
        QCOMPARE(queue->index(queue->rowOf(id), QueueModel::PriorityColumn).data().toString(), QStringLiteral("api"));
        QVERIFY(queue->entry(id)->prompt.contains(QStringLiteral("春风")));
        QTRY_COMPARE_WITH_TIMEOUT(queue->entry(id)->state, QueueState::Done, kTimeoutMs);
        saveShot(dialog, QStringLiteral("api-settings-running"));
        saveShot(studio.window(), QStringLiteral("api-queue-row"));
        // The charts' throughput counts it: nothing else ran on this engine.
        QTRY_VERIFY_WITH_TIMEOUT(!stats.isEmpty() && stats.last().at(0).value<EngineStats>().throughput.requests > 0,
                                 kTimeoutMs);
    }

    void stoppingEndsAStreamAndTheAppGoesOn()
    {
        // A slow fake model, so that the stream is still being written when the server stops.
        StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>(300)));
        QVERIFY(showLoaded(studio, QStringLiteral("fake")));
        ApiServerDialog* dialog = studio.window()->apiServerDialog();
        const int port = freePort();
        turnOn(dialog, port);
        QVERIFY(dialog->isRunning());

        StreamingClient client(port);
        // Some text has come: the stream is in flight.
        QVERIFY(QTest::qWaitFor([&] { return client.text().find("上联：") != std::string::npos; }, kTimeoutMs));
        QVERIFY(!client.ended());
        dialog->enableBox()->click();   // off
        QVERIFY(!dialog->isRunning());
        QVERIFY(QTest::qWaitFor([&] { return client.ended(); }, kTimeoutMs));
        QVERIFY2(client.endedAsAStream(), client.text().c_str());

        QueueModel* queue = studio.window()->queueModel();
        // The row comes with a queued signal, which the waits above may not have let in yet.
        QTRY_COMPARE_WITH_TIMEOUT(apiRows(queue).size(), 1, kTimeoutMs);
        const quint64 id = apiRows(queue).first();
        QTRY_COMPARE_WITH_TIMEOUT(queue->entry(id)->state, QueueState::Cancelled, kTimeoutMs);
        QVERIFY(editorRequestFinishes(studio));
        QVERIFY(!QSettings().value(QStringLiteral("api/enabled")).toBool());
    }

    void quittingEndsAStream()
    {
        auto studio = std::make_unique<StudioApp>(test::fakeLoader(std::make_shared<test::FakeBackend>(300)));
        QVERIFY(showLoaded(*studio, QStringLiteral("fake")));
        const int port = freePort();
        turnOn(studio->window()->apiServerDialog(), port);
        StreamingClient client(port);
        QVERIFY(QTest::qWaitFor([&] { return client.text().find("上联：") != std::string::npos; }, kTimeoutMs));
        studio.reset();   // as the app quits
        QVERIFY(QTest::qWaitFor([&] { return client.ended(); }, kTimeoutMs));
        QVERIFY2(client.endedAsAStream(), client.text().c_str());
    }

    void cancellingTheQueueRowFailsTheRequest()
    {
        StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>(300)));
        QVERIFY(showLoaded(studio, QStringLiteral("fake")));
        const int port = freePort();
        turnOn(studio.window()->apiServerDialog(), port);
        auto reply = std::async(std::launch::async, [port] {
            httplib::Client client("127.0.0.1", port);
            client.set_read_timeout(60);
            const auto res = client.Post("/v1/completions", json{{"prompt", "七言春联，关于春风"}}.dump(), "application/json");
            return res ? std::make_pair(res->status, res->body) : std::make_pair(-1, std::string());
        });
        QueueModel* queue = studio.window()->queueModel();
        QTRY_COMPARE_WITH_TIMEOUT(apiRows(queue).size(), 1, kTimeoutMs);
        const quint64 id = apiRows(queue).first();
        Q_EMIT studio.window()->queueView()->cancelRequested({id});   // "Cancel selected"
        QVERIFY(QTest::qWaitFor([&] { return reply.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
                                kTimeoutMs));
        const auto [status, body] = reply.get();
        QCOMPARE(status, 503);
        QVERIFY2(body.find("cancelled on the server") != std::string::npos, body.c_str());
        QTRY_COMPARE_WITH_TIMEOUT(queue->entry(id)->state, QueueState::Cancelled, kTimeoutMs);
    }

    void editorWorkGoesBeforeApiWork()
    {
        StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>(20)));
        QVERIFY(showLoaded(studio, QStringLiteral("fake")));
        EngineSettings settings;
        settings.maxBatch = 2;
        studio.engine()->setSettings(settings);
        const int port = freePort();
        turnOn(studio.window()->apiServerDialog(), port);
        // 16 prompts x 7 tokens over 2 slots: about 56 steps of API work queued.
        json prompts = json::array();
        for (int i = 0; i < 16; ++i)
            prompts.push_back("七言春联，关于春风");
        auto reply = std::async(std::launch::async, [port, prompts] {
            httplib::Client client("127.0.0.1", port);
            client.set_read_timeout(120);
            const auto res = client.Post("/v1/completions", json{{"prompt", prompts}}.dump(), "application/json");
            return res ? res->status : -1;
        });
        QueueModel* queue = studio.window()->queueModel();
        QTRY_COMPARE_WITH_TIMEOUT(apiRows(queue).size(), 1, kTimeoutMs);
        const quint64 api = apiRows(queue).first();
        QVERIFY(editorRequestFinishes(studio));
        // Had the editor's request queued behind the API's, it would finish last.
        QVERIFY(!queue->entry(api)->isFinished());
        QVERIFY(QTest::qWaitFor([&] { return reply.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
                                kTimeoutMs));
        QCOMPARE(reply.get(), 200);
        QTRY_COMPARE_WITH_TIMEOUT(queue->entry(api)->state, QueueState::Done, kTimeoutMs);
    }

    void portInUseIsSaidInTheSettings()
    {
        StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>()));
        QVERIFY(showLoaded(studio, QStringLiteral("fake")));
        const PortHolder other;
        ApiServerDialog* dialog = studio.window()->apiServerDialog();
        turnOn(dialog, other.port());
        QVERIFY(!dialog->isRunning());
        QVERIFY(!dialog->enableBox()->isChecked());
        const QString message = dialog->statusLabel()->text();
        QVERIFY2(message.contains(QStringLiteral("Port %1 is already in use").arg(other.port())),
                 qPrintable(message));
        QVERIFY(!QSettings().value(QStringLiteral("api/enabled")).toBool());
        saveShot(dialog, QStringLiteral("api-settings-port-in-use"));
        // Nothing else stopped, and another port works.
        QVERIFY(editorRequestFinishes(studio));
        turnOn(dialog, freePort());
        QVERIFY2(dialog->isRunning(), qPrintable(dialog->statusLabel()->text()));
    }

    void settingsPersist()
    {
        const int port = freePort();
        {
            StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>()));
            ApiServerDialog* dialog = studio.window()->apiServerDialog();
            dialog->portBox()->setValue(port);
            turnOn(dialog, port);
            QVERIFY(dialog->isRunning());
        }
        // The next start serves again on the same port, at once.
        StudioApp studio(test::fakeLoader(std::make_shared<test::FakeBackend>()));
        QVERIFY(studio.apiServer().isRunning());
        QCOMPARE(studio.apiServer().port(), port);
        QCOMPARE(studio.window()->apiServerDialog()->portBox()->value(), port);
        httplib::Client client("127.0.0.1", port);
        const auto res = client.Get("/health");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
    }

private:
    QTemporaryDir m_dir;
    QString m_modelDir;
};

QTEST_MAIN(TestStudioApi)
#include "test_studio_api.moc"
