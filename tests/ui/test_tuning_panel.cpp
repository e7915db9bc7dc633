#include "tuning/tuning_panel.h"

#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace couplet;

Q_DECLARE_METATYPE(couplet::EngineSettings)

class TestTuningPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kneeIsTheSmallestBatchNearTheBest()
    {
        QCOMPARE(proposeKnee({}), 0);
        const QList<AutoTuneResult> sweep = {
            {1, 100, 0, 10, 12}, {2, 190, 0, 11, 13}, {4, 350, 0, 12, 15}, {8, 600, 0, 14, 18},
            {16, 960, 0, 20, 25}, {32, 1000, 0, 35, 40}, {64, 990, 0, 70, 80}};
        QCOMPARE(proposeKnee(sweep), 16);
        QCOMPARE(proposeKnee(sweep, 0.0), 32);
        QCOMPARE(proposeKnee(sweep, 0.5), 8);
    }

    void editsAreAppliedOnceAfterAPause()
    {
        TuningPanel panel;
        QSignalSpy spy(&panel, &TuningPanel::settingsChanged);
        auto boxes = panel.findChildren<QSpinBox*>();
        boxes.at(0)->setValue(8);
        boxes.at(0)->setValue(9);
        boxes.at(1)->setValue(20);
        QVERIFY(spy.wait(2000));
        QCOMPARE(spy.count(), 1);
        const auto s = spy.at(0).at(0).value<EngineSettings>();
        QCOMPARE(s.maxBatch, 9);
        QCOMPARE(s.maxWaitMs, 20);

        const EngineSettings shown{{4, 5, 512}, 2};
        panel.setSettings(shown);
        QTest::qWait(TuningPanel::kApplyDelayMs * 2);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(panel.settings(), shown);
    }

    void acceptingTheProposalSetsMaxBatch()
    {
        TuningPanel panel;
        QSignalSpy requested(&panel, &TuningPanel::autoTuneRequested);
        QSignalSpy applied(&panel, &TuningPanel::settingsChanged);
        panel.startAutoTune();
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).value<QList<int>>().first(), 1);
        panel.addAutoTunePoint({1, 100, 1, 10, 12});
        panel.addAutoTunePoint({2, 198, 2, 11, 13});
        panel.addAutoTunePoint({4, 200, 2, 30, 35});
        panel.finishAutoTune();
        QCOMPARE(panel.proposedBatch(), 2);
        panel.acceptProposal();
        QCOMPARE(applied.count(), 1);
        QCOMPARE(applied.at(0).at(0).value<EngineSettings>().maxBatch, 2);
    }
};

QTEST_MAIN(TestTuningPanel)
#include "test_tuning_panel.moc"
