#include "prompt/prompt_panel.h"

#include "embed_position.h"

#include <QComboBox>
#include <QDate>
#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace couplet;

Q_DECLARE_METATYPE(couplet::GenerationSpec)

// QTest::keyClicks only types Latin-1: send key events carrying the text.
static void typeText(QWidget* widget, const QString& text)
{
    for (const QChar c : text) {
        QKeyEvent press(QEvent::KeyPress, Qt::Key_unknown, Qt::NoModifier, QString(c));
        QApplication::sendEvent(widget, &press);
    }
}

class TestPromptPanel : public QObject {
    Q_OBJECT
private:
    static QLineEdit* textEdit(PromptPanel& panel) { return panel.findChildren<QLineEdit*>().at(0); }

private Q_SLOTS:
    void enterEmitsTheSpecOfTheForm()
    {
        PromptPanel panel;
        GenerationSpec wanted;
        wanted.mode = PromptMode::Upper;
        wanted.length = 0;
        wanted.candidates = 4;
        wanted.hengpi = "万象更新";
        wanted.tonePattern = true;
        wanted.sampling.temperature = 0.6f;
        wanted.sampling.topK = 20;
        wanted.sampling.topP = 0.9f;
        wanted.sampling.seed = 1234;
        wanted.year = 2040; // beyond the list: added to it
        panel.setSpec(wanted);

        QSignalSpy spy(&panel, &PromptPanel::generateRequested);
        QLineEdit* text = textEdit(panel);
        typeText(text, QStringLiteral("春回大地千山秀"));
        QTest::keyClick(text, Qt::Key_Return);
        QCOMPARE(spy.count(), 1);
        const auto spec = spy.at(0).at(0).value<GenerationSpec>();
        QCOMPARE(int(spec.mode), int(PromptMode::Upper));
        QCOMPARE(QString::fromStdString(spec.upper), QStringLiteral("春回大地千山秀"));
        QVERIFY(spec.keywords.empty());
        QCOMPARE(spec.length, 0);
        QCOMPARE(spec.candidates, 4);
        QCOMPARE(QString::fromStdString(spec.hengpi), QStringLiteral("万象更新"));
        QVERIFY(spec.tonePattern);
        QCOMPARE(spec.sampling.temperature, 0.6f);
        QCOMPARE(spec.sampling.topK, 20);
        QCOMPARE(spec.sampling.topP, 0.9f);
        QCOMPARE(spec.sampling.seed, std::uint64_t(1234));
        QCOMPARE(spec.year, 2040);

        // The text stays selected, so the next prompt replaces it.
        QVERIFY(text->hasSelectedText());
        typeText(text, QStringLiteral("龙年大吉福满门"));
        QTest::keyClick(text, Qt::Key_Enter);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(QString::fromStdString(spy.at(1).at(0).value<GenerationSpec>().upper),
                 QStringLiteral("龙年大吉福满门"));
    }

    void theComingYearIsPreselected()
    {
        QCOMPARE(PromptPanel::comingYear(QDate(2026, 12, 5)), 2027);
        QCOMPARE(PromptPanel::comingYear(QDate(2027, 1, 20)), 2027); // 春节 2027 is on 6 February
        QCOMPARE(PromptPanel::comingYear(QDate(2027, 2, 6)), 2027); // the festival's own day
        QCOMPARE(PromptPanel::comingYear(QDate(2027, 2, 7)), 2028); // the next day: the next festival
        QCOMPARE(PromptPanel::comingYear(QDate(2027, 3, 1)), 2028);
        PromptPanel panel;
        QCOMPARE(panel.spec().year, PromptPanel::comingYear(QDate::currentDate()));
        GenerationSpec any;
        any.year = 0;
        panel.setSpec(any);
        QCOMPARE(panel.spec().year, 0);
        // The year box names the animal: 2027 is 羊年.
        GenerationSpec goat;
        goat.year = 2027;
        panel.setSpec(goat);
        bool named = false;
        for (auto* box : panel.findChildren<QComboBox*>())
            named = named || box->currentText() == QStringLiteral("2027 (羊年)");
        QVERIFY(named);
        QCOMPARE(panel.spec().year, 2027);
    }

    void keywordsAndAcrosticGoToTheirFields()
    {
        PromptPanel panel;
        GenerationSpec spec;
        spec.mode = PromptMode::Acrostic;
        spec.acrostic = "新春";
        spec.length = 5;
        panel.setSpec(spec);
        QCOMPARE(QString::fromStdString(panel.spec().acrostic), QStringLiteral("新春"));
        QCOMPARE(panel.spec().length, 5);
        spec.mode = PromptMode::Keywords;
        spec.keywords = "五福 龙年";
        spec.keywordsMustAppear = true;
        panel.setSpec(spec);
        QCOMPARE(QString::fromStdString(panel.spec().keywords), QStringLiteral("五福 龙年"));
        QVERIFY(panel.spec().acrostic.empty());
        QVERIFY(panel.spec().keywordsMustAppear);
        // Only keywords can be required: a given 上联 has none.
        spec.mode = PromptMode::Upper;
        spec.upper = "春回大地千山秀";
        panel.setSpec(spec);
        QVERIFY(!panel.spec().keywordsMustAppear);
    }

    void embedsTheNameAtTheChosenPosition()
    {
        PromptPanel panel;
        GenerationSpec spec;
        spec.mode = PromptMode::Acrostic;
        spec.acrostic = "德顺";
        spec.embedAt = 4;
        spec.length = 7;
        panel.setSpec(spec);
        QCOMPARE(panel.spec().embedAt, 4);
        QCOMPARE(panel.problem(), QString());
        spec.embedAt = kEmbedLast;
        panel.setSpec(spec);
        QCOMPARE(panel.spec().embedAt, kEmbedLast);
        // 鹤膝格 does not fit five characters: the message names what does.
        spec.embedAt = 5;
        spec.length = 5;
        panel.setSpec(spec);
        QVERIFY(panel.problem().contains(QStringLiteral("4 蜂腰格")));
        QSignalSpy spy(&panel, &PromptPanel::generateRequested);
        panel.generate();
        QCOMPARE(spy.count(), 0);
        spec.length = 7;
        spec.acrostic = "张德顺";
        panel.setSpec(spec);
        QVERIFY(panel.problem().contains(QStringLiteral("德顺")));
    }

    void theScriptSwitchReachesTheSpec()
    {
        PromptPanel panel;
        QCOMPARE(int(panel.spec().script), int(OutputScript::Simplified));
        GenerationSpec spec;
        spec.script = OutputScript::HongKong;
        panel.setSpec(spec);
        QCOMPARE(int(panel.spec().script), int(OutputScript::HongKong));
        spec.script = OutputScript::TaiwanPhrases;
        panel.setSpec(spec);
        QCOMPARE(int(panel.spec().script), int(OutputScript::TaiwanPhrases));
    }

    void refusesWhatCannotBeGenerated()
    {
        PromptPanel panel;
        GenerationSpec spec;
        spec.mode = PromptMode::Upper;
        spec.upper = "春回大地";
        spec.length = 7;
        panel.setSpec(spec);
        QSignalSpy spy(&panel, &PromptPanel::generateRequested);
        panel.generate();
        QCOMPARE(spy.count(), 0);
        QVERIFY(panel.problem().contains(QStringLiteral("4")));

        spec.upper = "春回大地千山秀";
        spec.hengpi = "万象";
        panel.setSpec(spec);
        QVERIFY(!panel.problem().isEmpty());
        spec.hengpi.clear();
        panel.setSpec(spec);
        QCOMPARE(panel.problem(), QString());

        panel.setGenerateEnabled(false, QStringLiteral("no model"));
        panel.generate();
        QCOMPARE(spy.count(), 0);
        panel.setGenerateEnabled(true);
        panel.generate();
        QCOMPARE(spy.count(), 1);
    }
};

QTEST_MAIN(TestPromptPanel)
#include "test_prompt_panel.moc"
