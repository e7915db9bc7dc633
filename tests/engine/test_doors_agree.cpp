// The pinning test of the request layer: one spec and seed through every door
// (`couplet generate`, `couplet batch`, `couplet batch --redis` with a
// `couplet worker`, the HTTP server, and the editor's engine) gives the same
// couplet, and where a door reports them the same score parts, on the shipped
// model. Every door turns the spec into couplets with CandidateGroup, so a
// door that samples, seeds or ranks its own way fails here.

#include "child_process.h"
#include "redis_server.h"

#include "api_server.h"
#include "couplet_generator.h"
#include "couplet_model_generator.h"
#include "engine_controller.h"
#include "generate.h"
#include "model_backend.h"
#include "serving_engine.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <QSignalSpy>
#include <QTest>

#include <cstdlib>
#include <csignal>
#include <fstream>

using namespace couplet;
using couplet::test::ChildProcess;
using json = nlohmann::json;

namespace {

constexpr const char* kKeywords = "家庭和睦";
constexpr int kBatchSeed = 7;                 // `batch --seed 7`: row 1 is seed 8
constexpr std::uint64_t kSeed = kBatchSeed + 1;
constexpr int kTimeoutMs = 300000;

std::filesystem::path modelDir() { return std::getenv("COUPLET_MODEL_DIR"); }
std::string cli() { return std::getenv("COUPLET_CLI"); }

GenerationSpec theSpec()
{
    GenerationSpec spec;
    spec.keywords = kKeywords;
    spec.length = 7;
    spec.sampling.seed = kSeed;
    return spec;
}

DeviceOptions oneThread()
{
    DeviceOptions options;
    options.device = "cpu";
    options.threads = 1;
    return options;
}

std::string text(const Couplet& c) { return c.upper + "/" + c.lower + "/" + c.hengpi; }

Couplet fromJson(const json& j)
{
    Couplet c;
    c.upper = j.at("upper").get<std::string>();
    c.lower = j.at("lower").get<std::string>();
    c.hengpi = j.at("hengpi").get<std::string>();
    return c;
}

// The one row of a batch's JSON Lines output.
Couplet readRow(const std::filesystem::path& output)
{
    std::ifstream in(output);
    std::string line;
    std::getline(in, line);
    const json row = json::parse(line);
    if (row.at("status").get<std::string>() != "ok") throw std::runtime_error("row failed: " + line);
    return fromJson(row);
}

} // namespace

class TestDoorsAgree : public QObject {
    Q_OBJECT
private:
    std::filesystem::path m_dir;
    Couplet m_expected;

    std::filesystem::path writeInput() const
    {
        const auto path = m_dir / "in.csv";
        std::ofstream(path, std::ios::binary) << "id,关键词,字数\nr1," << kKeywords << ",7\n";
        return path;
    }

    // `local`: the model runs in this process (one thread, as everywhere
    // here); else the rows go to Redis and a worker has the model.
    std::vector<std::string> batchArgs(const std::string& output, bool local) const
    {
        std::vector<std::string> args{cli(), "batch", writeInput().string(), "-o", (m_dir / output).string(),
                                      "--english-headers", "--model", modelDir().string(), "--seed",
                                      std::to_string(kBatchSeed), "--journal", (m_dir / (output + ".sqlite")).string(),
                                      "--quiet",
                                      // A bulk row samples kBulkRerankFactor unless asked: asked
                                      // for the interactive doors' kRerankPool, it is their couplet.
                                      "--candidates", std::to_string(kRerankPool)};
        if (local) args.insert(args.end(), {"--threads", "1"});
        return args;
    }

    void expectSame(const Couplet& got, const char* door, bool withParts)
    {
        QVERIFY2(text(got) == text(m_expected),
                 qPrintable(QStringLiteral("%1 wrote %2, the reference %3")
                                .arg(QString::fromUtf8(door), QString::fromStdString(text(got)),
                                     QString::fromStdString(text(m_expected)))));
        if (!withParts) return;
        const ScoreParts& a = got.parts;
        const ScoreParts& b = m_expected.parts;
        const double parts[][2] = {{a.logProb, b.logProb},       {a.duizhang, b.duizhang}, {a.tone, b.tone},
                                   {a.keywords, b.keywords},     {a.repetition, b.repetition},
                                   {a.cliche, b.cliche},         {a.backward, b.backward}};
        for (const auto& p : parts) QVERIFY2(std::abs(p[0] - p[1]) < 1e-9, door);
        QVERIFY2(std::abs(got.score - m_expected.score) < 1e-9, door);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_dir = std::filesystem::temp_directory_path() / ("doors-agree-" + std::to_string(::getpid()));
        std::filesystem::create_directories(m_dir);
        // The reference: one CandidateGroup in-process, reranked (the default).
        const auto model = CoupletModel::load(modelDir(), oneThread());
        auto decoder = model->makeDecoder();
        const auto couplets = generateCouplets(*model, *decoder, theSpec());
        QCOMPARE(couplets.size(), std::size_t(1));
        m_expected = couplets.front();
        QVERIFY(m_expected.parts.duizhang != 0 || m_expected.parts.tone != 0);   // reranked: parts filled
    }

    void cleanupTestCase()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }

    void generateCommand()
    {
        ChildProcess generate({cli(), "generate", "--keywords", kKeywords, "--length", "7", "--seed",
                               std::to_string(kSeed), "--json", "--threads", "1", "--model", modelDir().string()},
                              m_dir / "generate.log");
        QCOMPARE(generate.wait(), 0);
        const std::string log = generate.logText();   // stdout and stderr: the JSON array is one block
        const json out = json::parse(log.substr(log.find("[\n"), log.rfind(']') + 1 - log.find("[\n")));
        Couplet got = fromJson(out.at(0));
        got.score = out.at(0).at("score").get<double>();
        const json& p = out.at(0).at("parts");
        got.parts = {p.at("log_prob").get<double>(),   p.at("duizhang").get<double>(), p.at("tone").get<double>(),
                     p.at("keywords").get<double>(),   p.at("repetition").get<double>(),
                     p.at("cliche").get<double>(),     p.at("backward").get<double>()};
        expectSame(got, "couplet generate", true);
    }

    void batchCommand()
    {
        ChildProcess batch(batchArgs("local.jsonl", true), m_dir / "batch.log");
        QCOMPARE(batch.wait(), 0);
        expectSame(readRow(m_dir / "local.jsonl"), "couplet batch", false);
    }

    void redisWorker()
    {
        test::RedisServer::skipUnlessInstalled();
        test::RedisServer redis(m_dir / "redis");
        ChildProcess worker({cli(), "worker", "--redis", redis.url(), "--name", "w1", "--model", modelDir().string(),
                             "--device", "cpu", "--threads", "1"},
                            m_dir / "worker.log");
        auto args = batchArgs("cluster.jsonl", false);
        args.insert(args.end(), {"--redis", redis.url()});
        ChildProcess producer(args, m_dir / "producer.log");
        QVERIFY2(producer.wait() == 0, qPrintable(QString::fromStdString(producer.logText())));
        worker.signal(SIGTERM);
        worker.wait();
        expectSame(readRow(m_dir / "cluster.jsonl"), "couplet worker", false);
    }

    void httpServer()
    {
        const auto model = CoupletModel::load(modelDir(), oneThread());
        auto decoder = model->makeDecoder();
        ServingMetrics metrics;
        ServingEngine engine(*decoder, ServedModel{ModelCard{}, std::make_shared<CoupletModelGenerator>(model)}, {},
                             &metrics);
        ServerOptions options;
        options.port = 0;
        ApiServer server(engine, metrics, options);
        const int port = server.start();
        httplib::Client client("127.0.0.1", port);
        client.set_read_timeout(std::chrono::seconds(120));
        const json body{{"couplet", {{"keywords", kKeywords}, {"length", 7}}}, {"seed", kSeed}};
        const auto res = client.Post("/v1/completions", body.dump(), "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        const std::string got = json::parse(res->body).at("choices").at(0).at("text").get<std::string>();
        const std::string want = "上联：" + m_expected.upper + "\n下联：" + m_expected.lower + "\n横批：" + m_expected.hengpi;
        QCOMPARE(QString::fromStdString(got), QString::fromStdString(want));
        server.stop();
    }

    void editorEngine()
    {
        EngineController engine(&loadModelBackend);
        QSignalSpy loaded(&engine, &EngineController::modelLoaded);
        QSignalSpy finished(&engine, &EngineController::candidateFinished);
        engine.loadModel(QString::fromStdString(modelDir().string()), oneThread());
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
        engine.submit(theSpec());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        const auto r = finished.at(0).at(0).value<CandidateResult>();
        QCOMPARE(r.outcome, Outcome::Done);
        QVERIFY(r.reranked);
        Couplet got;
        got.upper = r.upper.toStdString();
        got.lower = r.lower.toStdString();
        got.hengpi = r.hengpi.toStdString();
        got.score = r.score;
        got.parts = r.parts;
        expectSame(got, "the editor's engine", true);
    }
};

QTEST_MAIN(TestDoorsAgree)
#include "test_doors_agree.moc"
