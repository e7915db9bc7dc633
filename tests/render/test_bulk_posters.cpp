// `couplet batch --posters`: the real CLI over a tiny random-weight model.
// Every ok row gets exactly one poster named by its id; a job killed with
// SIGKILL while posters are drawn and then resumed ends with every poster
// present once, those drawn before the kill untouched, and no temporary
// files; a font that lacks a glyph gives the row a clear error.
#include "couplet_renderer.h"
#include "poster_files.h"
#include "tiny_model.h"

#include "csv_reader.h"

#include <QDir>
#include <QFontDatabase>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <map>

using namespace couplet;

namespace {

struct Row {
    std::string id;
    std::string keywords;   // empty: an invalid row (no prompt), which gets no poster
};

void writeCsv(const QString& path, const std::vector<Row>& rows)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << "id,关键词,字数\n";
    for (const Row& r : rows) out << r.id << ',' << r.keywords << ",5\n";
}

// The output's rows as header name -> cell.
std::vector<std::map<std::string, std::string>> readOutput(const QString& path)
{
    CsvReader reader(path.toStdString());
    std::vector<std::map<std::string, std::string>> rows;
    CsvRecord record;
    while (reader.next(record)) {
        std::map<std::string, std::string> row;
        for (std::size_t c = 0; c < reader.header().size(); ++c) row[reader.header()[c]] = record.fields.at(c);
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace

class TestBulkPosters : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_model;

    QStringList batchArgs(const QString& name, const QStringList& extra) const
    {
        return QStringList{QStringLiteral("batch"), m_dir.filePath(name + QStringLiteral(".csv")),
                           QStringLiteral("-o"), m_dir.filePath(name + QStringLiteral("-out.csv")),
                           QStringLiteral("--model"), m_model, QStringLiteral("--device"), QStringLiteral("cpu"),
                           QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--batch"),
                           QStringLiteral("8"), QStringLiteral("--seed"), QStringLiteral("7"),
                           QStringLiteral("--journal"), m_dir.filePath(name + QStringLiteral(".sqlite")),
                           QStringLiteral("--quiet")}
            + extra;
    }

    static QString cli()
    {
        const QString path = qEnvironmentVariable("COUPLET_CLI");
        if (path.isEmpty()) qFatal("COUPLET_CLI is not set (tests/render/CMakeLists.txt sets it)");
        return path;
    }

    // Runs the CLI to its end; returns its exit code, stderr in `log`.
    static int run(const QStringList& args, QByteArray* log = nullptr)
    {
        QProcess process;
        process.start(cli(), args);
        if (!process.waitForFinished(240000)) {
            process.kill();
            process.waitForFinished();
            qWarning("the CLI did not finish in 240 s");
            return -1;
        }
        const QByteArray err = process.readAllStandardError();
        if (log) *log = err;
        if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) qWarning("%s", err.constData());
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_model = QString::fromStdString(couplet::testing::writeTinyModel(m_dir.filePath("model").toStdString()).string());
    }

    void everyOkRowGetsOnePosterNamedByItsId()
    {
        // Ids that cannot be file names as they are, repeated ids, an empty
        // id, a Chinese id, and an invalid row.
        const std::vector<Row> rows{{"a/b", "春风"}, {"../up", "福"}, {" .hid", "平安"}, {"dup", "山水"},
                                    {"dup", "龙凤"}, {"", "吉祥"}, {"春节", "春风"}, {"bad", ""}};
        writeCsv(m_dir.filePath("names.csv"), rows);
        const QString posters = m_dir.filePath("names-posters");
        QCOMPARE(run(batchArgs("names", {"--posters", posters, "--poster-format", "card,print",
                                         "--poster-size", "160x28"})),
                 0);
        QSet<QString> expected;
        for (const QString stem : {"a_b", "_up", "hid", "dup-4", "dup-5", "row-6", "春节"})
            expected << stem + ".png" << stem + ".pdf";
        QCOMPARE(testing::filesIn(posters), expected);
        QCOMPARE(QImage(posters + "/春节.png").size(), QSize(1080, 1920));
        QFile pdf(posters + "/a_b.pdf");
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        for (const auto& row : readOutput(m_dir.filePath("names-out.csv")))
            QCOMPARE(row.at("status"), row.at("id") == "bad" ? std::string("invalid") : std::string("ok"));
    }

    void aKilledJobResumesWithEveryPosterOnce()
    {
        constexpr int kRows = 240;
        const std::vector<std::string> keywords{"春风", "福", "平安", "山水", "龙凤", "吉祥"};
        std::vector<Row> rows;
        QSet<QString> expected;
        for (int i = 1; i <= kRows; ++i) {
            const bool valid = i % 17 != 0;
            std::string id = "r";   // not "r" + to_string(): GCC 12 warns falsely (-Wrestrict)
            id += std::to_string(i);
            rows.push_back({id, valid ? keywords[std::size_t(i) % keywords.size()] : ""});
            if (valid) expected << QStringLiteral("r%1.png").arg(i);
        }
        writeCsv(m_dir.filePath("kill.csv"), rows);
        const QString posters = m_dir.filePath("kill-posters");
        const QStringList args = batchArgs("kill", {"--posters", posters, "--poster-threads", "1", "--resume"});

        // Killed once some posters are written: the tiny model writes rows
        // far faster than one thread draws cards, so committed rows wait for
        // their posters then.
        QProcess first;
        first.start(cli(), args);
        QVERIFY(first.waitForStarted());
        QDeadlineTimer deadline(120000);
        while (QDir(posters).entryList({"*.png"}, QDir::Files).size() < 12 && first.state() == QProcess::Running && !deadline.hasExpired())
            first.waitForFinished(20);   // returns early when it exits
        QCOMPARE(first.state(), QProcess::Running);
        first.kill();   // SIGKILL
        QVERIFY(first.waitForFinished());
        QCOMPARE(first.exitStatus(), QProcess::CrashExit);

        QSet<QString> before = testing::filesIn(posters);
        before.remove(QStringLiteral(".partial"));
        const auto committed = readOutput(m_dir.filePath("kill-out.csv"));
        int okCommitted = 0;
        for (const auto& row : committed) okCommitted += row.at("status") == "ok";
        qInfo("killed with %d ok rows committed and %d posters written", okCommitted, int(before.size()));
        // The kill left committed rows without posters: the resume has work to do.
        QVERIFY2(before.size() < okCommitted, qPrintable(QStringLiteral("%1 posters, %2 ok rows committed")
                                                             .arg(before.size()).arg(okCommitted)));
        QVERIFY(before.size() >= 12);
        std::map<QString, std::pair<ino_t, std::int64_t>> drawn;
        for (const QString& name : before) drawn[name] = testing::fileIdentity(posters + "/" + name);
        // What a kill during drawing leaves behind is never taken for a poster.
        QDir(posters).mkpath(QStringLiteral(".partial"));
        QFile stale(posters + "/.partial/r3.png");
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.write("half a png");
        stale.close();

        QByteArray log;
        QStringList resume = args;
        resume.removeAll(QStringLiteral("--quiet"));   // for the summary
        QCOMPARE(run(resume, &log), 0);
        QVERIFY2(log.contains("already there"), log.constData());
        QCOMPARE(testing::filesIn(posters), expected);
        for (const auto& [name, id] : drawn)
            QVERIFY2(testing::fileIdentity(posters + "/" + name) == id, qPrintable(name + " was drawn again"));
        QCOMPARE(int(readOutput(m_dir.filePath("kill-out.csv")).size()), kRows);
        const QImage card(posters + "/r3.png");
        QCOMPARE(card.size(), QSize(1080, 1920));
    }

    void aFontWithoutTheGlyphsGivesTheRowAnError()
    {
        QString latin;
        for (const QString& family : QFontDatabase::families())
            if (CoupletRenderer::missingGlyphs(CoupletText{QStringLiteral("春风"), {}, {}}, family).contains("春")) {
                latin = family;
                break;
            }
        if (latin.isEmpty()) QFAIL("every installed font writes Chinese: install fonts-dejavu-core for this test");
        writeCsv(m_dir.filePath("font.csv"), {{"f1", "春风"}, {"f2", "平安"}});
        const QString posters = m_dir.filePath("font-posters");
        QCOMPARE(run(batchArgs("font", {"--posters", posters, "--poster-font", latin})), 0);
        QCOMPARE(testing::filesIn(posters), QSet<QString>());
        const auto output = readOutput(m_dir.filePath("font-out.csv"));
        QCOMPARE(int(output.size()), 2);
        for (const auto& row : output) {
            QCOMPARE(row.at("status"), std::string("ok"));
            QVERIFY2(QString::fromStdString(row.at("error")).startsWith("no poster: the font '" + latin
                                                                        + "' has no glyph for "),
                     row.at("error").c_str());
        }

        QByteArray log;
        QCOMPARE(run(batchArgs("font", {"--posters", posters, "--poster-font", "No Such Font 42", "--restart"}),
                     &log),
                 2);
        QVERIFY2(log.contains("--poster-font: no font family 'No Such Font 42' is installed"), log.constData());
    }
};

QTEST_MAIN(TestBulkPosters)
#include "test_bulk_posters.moc"
