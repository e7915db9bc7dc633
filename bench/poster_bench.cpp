// Share cards per second on this machine: the renderer alone (no model), one
// thread, PNG (encoded and written) and PDF pages, and the print-ready PDF of
// `couplet batch --poster-format print` (130x23 cm, four pages), over
// couplets of 5, 7 and 9 characters in Simplified and Traditional. Prints a
// table and writes JSON.
//   poster_bench [--count N] [--json FILE]
#include "print_poster.h"
#include "share_card.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cstdio>

using namespace couplet;

namespace {

const CoupletText kCouplets[] = {
    {QStringLiteral("春回大地秀"), QStringLiteral("福满人间欢"), QStringLiteral("万象更新")},
    {QStringLiteral("詩德精神融雅韻"), QStringLiteral("筆順生意興隆風"), QStringLiteral("生意興隆")},
    {QStringLiteral("一帆风顺年年好运"), QStringLiteral("万事如意步步高升"), QStringLiteral("吉星高照")},
};

// Posters per second writing `count` cards in `suffix` format into `dir`
// ("print": the print PDF).
double measure(const QString& dir, const QString& suffix, int count)
{
    const bool print = suffix == QLatin1String("print");
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < count; ++i) {
        const QString path = QStringLiteral("%1/%2.%3").arg(dir).arg(i).arg(print ? QStringLiteral("pdf") : suffix);
        const QString error = print ? writePrintPoster(path, kCouplets[i % 3], PrintSize{})
                                    : writeShareCard(path, kCouplets[i % 3]);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 0;
        }
    }
    return count / (timer.nsecsElapsed() / 1e9);
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qsizetype countAt = args.indexOf(QStringLiteral("--count")), jsonAt = args.indexOf(QStringLiteral("--json"));
    const int count = countAt > 0 && countAt + 1 < args.size() ? args[countAt + 1].toInt() : 60;
    QTemporaryDir dir;
    QJsonObject out{{QStringLiteral("count"), count}, {QStringLiteral("threads"), 1}};
    std::printf("%-8s %12s\n", "format", "posters/s");
    for (const QString& suffix : {QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("print")}) {
        const double rate = measure(dir.path(), suffix, count);
        std::printf("%-8s %12.1f\n", qPrintable(suffix), rate);
        out[suffix] = rate;
    }
    if (jsonAt > 0 && jsonAt + 1 < args.size()) {
        QFile file(args[jsonAt + 1]);
        if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(out).toJson()) < 0) return 1;
    }
    return 0;
}
