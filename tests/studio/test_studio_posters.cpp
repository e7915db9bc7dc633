// Posters from the app's bulk job ("Posters next to the CSV" in the import
// dialog): the whole app over the real model code (tiny random-weight
// model), the engine thread generating rows and the posters' own threads
// drawing them. One file per ok row; an app closed while posters are drawn
// and a job resumed in a new app end with every poster present once, those
// drawn before untouched, and no temporary files.
#include "studio_app.h"
#include "model_backend.h"
#include "studio_test_util.h"

#include "poster_files.h"
#include "tiny_model.h"

#include "bulk/bulk_job_bar.h"
#include "bulk_journal.h"
#include "mainwindow/main_window.h"
#include "queue/queue_model.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QProgressBar>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <map>

using namespace couplet;

namespace {

constexpr int kTimeoutMs = 120000;

} // namespace

class TestStudioPosters : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_model;

    // id,关键词,字数: ids p1..pN; every 13th row has no prompt (invalid: no poster).
    // Returns the posters expected (NAME.png).
    QSet<QString> writeInput(const QString& path, int rows)
    {
        std::ofstream out(path.toStdString(), std::ios::binary);
        out << "id,关键词,字数\n";
        const char* keywords[] = {"春风", "福", "平安", "山水", "吉祥"};
        QSet<QString> expected;
        for (int r = 1; r <= rows; ++r) {
            const bool valid = r % 13 != 0;
            out << 'p' << r << ',' << (valid ? keywords[r % 5] : "") << ",5\n";
            if (valid)
                expected << QStringLiteral("p%1.png").arg(r);
        }
        return expected;
    }

    BulkImport import(const QString& name, bool resume) const
    {
        BulkImport b;
        b.input = m_dir.filePath(name + QStringLiteral(".csv"));
        b.output = m_dir.filePath(name + QStringLiteral("-out.csv"));
        b.resume = resume;
        b.posters.dir = m_dir.filePath(name + QStringLiteral("-posters")).toStdString();
        b.posters.threads = 1;
        return b;
    }

    static bool finished(StudioApp& studio, quint64 id)
    {
        const QueueEntry* entry = studio.window()->queueModel()->entry(id);
        return entry && entry->isFinished();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_model = m_dir.filePath(QStringLiteral("model"));
        testing::writeTinyModel(m_model.toStdString(), 7);
    }

    void aJobWithPostersWritesOneFilePerOkRow()
    {
        const QSet<QString> expected = writeInput(m_dir.filePath(QStringLiteral("one.csv")), 30);
        StudioApp studio(&loadModelBackend);
        QVERIFY(test::showLoaded(studio, m_model, kTimeoutMs));
        const BulkImport b = import(QStringLiteral("one"), false);
        const quint64 id = studio.startBulk(b);
        QTRY_VERIFY_WITH_TIMEOUT(finished(studio, id), kTimeoutMs);
        QCOMPARE(studio.window()->queueModel()->entry(id)->state, QueueState::Done);
        const QString dir = QString::fromStdString(b.posters.dir.string());
        QCOMPARE(testing::filesIn(dir), expected);
        QCOMPARE(QImage(dir + QStringLiteral("/p1.png")).size(), QSize(1080, 1920));
        const QString posters = studio.window()->bulkBar()->posterText();
        QVERIFY2(posters.startsWith(QStringLiteral("Posters: %1 of %1").arg(expected.size())), qPrintable(posters));
        test::saveShot(studio.window(), QStringLiteral("bulk-job-posters"));
    }

    // The app closes (its window, engine and poster threads go) while
    // posters are still being drawn; a new app resumes the job.
    void anAppClosedMidJobResumesWithEveryPosterOnce()
    {
        const QSet<QString> expected = writeInput(m_dir.filePath(QStringLiteral("two.csv")), 120);
        const BulkImport first = import(QStringLiteral("two"), false);
        const QString dir = QString::fromStdString(first.posters.dir.string());
        {
            StudioApp studio(&loadModelBackend);
            QVERIFY(test::showLoaded(studio, m_model, kTimeoutMs));
            const quint64 id = studio.startBulk(first);
            // Every row written (the tiny model is quick), posters still being drawn.
            QTRY_VERIFY_WITH_TIMEOUT(studio.window()->bulkBar()->progressBar()->value() == 1000, kTimeoutMs);
            QTRY_VERIFY_WITH_TIMEOUT(testing::filesIn(dir).size() > 10, kTimeoutMs);
            QVERIFY2(!finished(studio, id), "the job ended before the app was closed: give it more rows");
        }
        // The job waits for its posters: closing the app leaves it unfinished, to resume.
        {
            const BulkJournal journal(
                (QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/jobs.sqlite")).toStdString());
            const auto job = journal.findJob(first.input.toStdString(), first.output.toStdString());
            QVERIFY(job.has_value());
            QVERIFY(job->state != JobState::Finished);
        }
        const QSet<QString> before = testing::filesIn(dir) - QSet<QString>{QStringLiteral(".partial")};
        QVERIFY(before.size() < expected.size());
        for (const QString& name : before)
            QVERIFY2(expected.contains(name), qPrintable(name));
        std::map<QString, std::pair<ino_t, std::int64_t>> drawn;
        for (const QString& name : testing::filesIn(dir))
            if (name.endsWith(QStringLiteral(".png")))
                drawn[name] = testing::fileIdentity(dir + QLatin1Char('/') + name);

        StudioApp studio(&loadModelBackend);
        QVERIFY(test::showLoaded(studio, m_model, kTimeoutMs));
        const quint64 id = studio.startBulk(import(QStringLiteral("two"), true));
        QTRY_VERIFY_WITH_TIMEOUT(finished(studio, id), kTimeoutMs);
        QCOMPARE(studio.window()->queueModel()->entry(id)->state, QueueState::Done);
        QCOMPARE(testing::filesIn(dir), expected);   // every poster, no .partial left
        for (const auto& [name, before] : drawn)
            QVERIFY2(testing::fileIdentity(dir + QLatin1Char('/') + name) == before, qPrintable(name + QStringLiteral(" was drawn again")));
        const QString posters = studio.window()->bulkBar()->posterText();
        QVERIFY2(posters.startsWith(QStringLiteral("Posters: %1 of %1").arg(expected.size())), qPrintable(posters));
    }

    // A font that is not installed is refused before the job starts, saying which.
    void aMissingFontFailsTheJobWithItsName()
    {
        writeInput(m_dir.filePath(QStringLiteral("three.csv")), 3);
        StudioApp studio(&loadModelBackend);
        QVERIFY(test::showLoaded(studio, m_model, kTimeoutMs));
        BulkImport b = import(QStringLiteral("three"), false);
        b.posters.font = "No Such Font 42";
        const quint64 id = studio.startBulk(b);
        QTRY_VERIFY_WITH_TIMEOUT(finished(studio, id), kTimeoutMs);
        QCOMPARE(studio.window()->queueModel()->entry(id)->state, QueueState::Failed);
        const QString error = studio.window()->bulkBar()->errorText();
        QVERIFY2(error.contains(QStringLiteral("No Such Font 42")), qPrintable(error));
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("three-out.csv"))));
    }
};

QTEST_MAIN(TestStudioPosters)
#include "test_studio_posters.moc"
