// The bulk job bar's poster line: how many of the job's ok rows have their
// poster, and, in red with the job's own errors, each row that got none and why.
#include "bulk/bulk_job_bar.h"

#include <QLabel>
#include <QTest>

using namespace couplet;

class TestBulkJobBar : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void countsPostersAndNamesTheRowsWithout()
    {
        BulkJobBar bar;
        BulkProgress p;
        p.state = BulkState::Running;
        p.total = 500;
        p.ok = 120;
        bar.setStatus(7, QStringLiteral("campaign.csv"), p);
        QCOMPARE(bar.posterText(), QString());   // a job without posters says nothing of them

        BulkPosterProgress posters;
        posters.written = 100;
        posters.kept = 17;
        posters.noFont = 1;
        posters.waiting = 2;
        posters.postersPerSecond = 4.5;
        posters.problems = {"row 17: no poster: no installed Chinese font has a glyph for 髪"};
        bar.setPosterStatus(posters);
        QCOMPARE(bar.posterText(),
                 QStringLiteral("Posters: 117 of 120 · 4.5 posters/s · 2 being drawn · 1 without a font"));
        QVERIFY(bar.problemText().contains(QStringLiteral("row 17")));
        QVERIFY(bar.problemText().contains(QStringLiteral("髪")));
        QVERIFY(bar.errorText().isEmpty());   // the job itself has not failed

        bar.setStatus(8, QStringLiteral("next.csv"), p);   // another job: its own posters, if any
        QCOMPARE(bar.posterText(), QString());
        QCOMPARE(bar.problemText(), QString());
    }
};

QTEST_MAIN(TestBulkJobBar)
#include "test_bulk_job_bar.moc"
