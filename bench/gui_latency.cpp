// GUI responsiveness while the engine streams at full speed: a 5 ms timer on
// the main thread measures how late it fires (event-loop delay) while the
// engine thread generates and delivers batched text chunks. Prints a table
// and writes JSON. Uses the fake backend from the tests, or --model DIR.
#include "engine_controller.h"
#include "model_backend.h"
#include "fake_backend.h"
#include "percentile.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace couplet;

namespace {

constexpr int kTickMs = 5;

struct Run {
    std::vector<double> lateMs;
    qint64 chunkSignals = 0;
    qint64 chunks = 0;
    qint64 tokens = 0;
    qint64 requests = 0;
};

void report(const Run& run, double seconds, const QString& backend, const QString& jsonPath)
{
    const double p50 = percentile(run.lateMs, 50), p95 = percentile(run.lateMs, 95);
    const double p99 = percentile(run.lateMs, 99), max = percentile(run.lateMs, 100);
    std::printf("backend            %s\n", qPrintable(backend));
    std::printf("duration s         %.1f\n", seconds);
    std::printf("tokens/s           %.0f\n", run.tokens / seconds);
    std::printf("requests/s         %.1f\n", run.requests / seconds);
    std::printf("chunk signals/s    %.1f   (%.1f chunks each)\n", run.chunkSignals / seconds,
                run.chunkSignals ? double(run.chunks) / double(run.chunkSignals) : 0.0);
    std::printf("timer ticks        %zu every %d ms\n", run.lateMs.size(), kTickMs);
    std::printf("lateness ms        p50 %.2f  p95 %.2f  p99 %.2f  max %.2f\n", p50, p95, p99, max);
    QJsonObject json{{"backend", backend}, {"durationS", seconds}, {"tickMs", kTickMs},
                     {"tokensPerSecond", run.tokens / seconds}, {"requestsPerSecond", run.requests / seconds},
                     {"chunkSignalsPerSecond", run.chunkSignals / seconds},
                     {"latenessMs", QJsonObject{{"p50", p50}, {"p95", p95}, {"p99", p99}, {"max", max}}}};
    QFile file(jsonPath);
    if (file.open(QIODevice::WriteOnly))
        file.write(QJsonDocument(json).toJson());
    else
        std::fprintf(stderr, "cannot write %s\n", qPrintable(jsonPath));
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption modelOption(QStringLiteral("model"), QStringLiteral("Model folder (default: fake backend)."), QStringLiteral("dir"));
    const QCommandLineOption secondsOption(QStringLiteral("seconds"), QStringLiteral("Measurement time."), QStringLiteral("s"), QStringLiteral("10"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("JSON output."), QStringLiteral("path"), QStringLiteral("gui_latency.json"));
    const QCommandLineOption batchOption(QStringLiteral("batch"), QStringLiteral("max_batch."), QStringLiteral("n"), QStringLiteral("32"));
    parser.addOptions({modelOption, secondsOption, jsonOption, batchOption});
    parser.process(app);
    const bool fake = !parser.isSet(modelOption);
    const double seconds = parser.value(secondsOption).toDouble();
    const int batch = parser.value(batchOption).toInt();

    EngineController engine(fake ? test::fakeLoader(std::make_shared<test::FakeBackend>()) : BackendLoader(&loadModelBackend));
    Run run;
    QElapsedTimer clock;
    bool measuring = false;
    GenerationSpec spec;
    spec.keywords = "春";
    spec.length = fake ? 60 : 7;
    spec.candidates = 4;
    auto keepBusy = [&] {
        // Twice the slots in flight, so the scheduler never runs dry.
        for (int i = 0; i < 2 * batch / spec.candidates; ++i)
            engine.submit(spec, true);
    };

    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    qint64 expected = 0;
    QObject::connect(&tick, &QTimer::timeout, &app, [&] {
        const qint64 now = clock.nsecsElapsed();
        run.lateMs.push_back(std::max<qint64>(0, now - expected) / 1e6);
        expected = now + qint64(kTickMs) * 1000000;
        if (now / 1e9 >= seconds) {
            tick.stop();
            engine.cancelAll();
            report(run, now / 1e9, fake ? QStringLiteral("fake") : parser.value(modelOption), parser.value(jsonOption));
            QCoreApplication::quit();
        }
    });
    QObject::connect(&engine, &EngineController::textChunks, &app, [&](const QList<TextChunk>& chunks) {
        ++run.chunkSignals;
        run.chunks += chunks.size();
    });
    QObject::connect(&engine, &EngineController::requestFinished, &app, [&](const RequestSummary& s) {
        if (!measuring)
            return;
        run.tokens += s.tokens;
        ++run.requests;
        engine.submit(spec, true);
    });
    QObject::connect(&engine, &EngineController::modelLoadFailed, &app, [&](const QString& message) {
        std::fprintf(stderr, "model not loaded: %s\n", qPrintable(message));
        QCoreApplication::exit(1);
    });
    QObject::connect(&engine, &EngineController::modelLoaded, &app, [&] {
        measuring = true;
        keepBusy();
        clock.start();
        expected = qint64(kTickMs) * 1000000;
        tick.start(kTickMs);
    });
    engine.setSettings({batch, 0, 2048, 0});
    engine.loadModel(fake ? QStringLiteral("fake") : parser.value(modelOption));
    return app.exec();
}
