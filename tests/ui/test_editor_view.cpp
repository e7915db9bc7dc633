#include "editor/editor_view.h"

#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
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

class TestEditorView : public QObject {
    Q_OBJECT
private:
    static GenerationSpec keywords(int candidates)
    {
        GenerationSpec spec;
        spec.keywords = "春";
        spec.candidates = candidates;
        spec.sampling.seed = 7;
        return spec;
    }

private Q_SLOTS:
    void streamsCandidatesOfTheCurrentRequestOnly()
    {
        EditorView editor;
        QSignalSpy shown(&editor, &EditorView::currentCoupletChanged);
        editor.beginRequest(5, keywords(3));
        QCOMPARE(editor.candidateCount(), 3);
        editor.updateCandidate(5, 0, {QStringLiteral("春回"), QString(), QString()});
        editor.updateCandidate(4, 0, {QStringLiteral("旧的"), QString(), QString()});
        editor.updateCandidate(5, 2, {QStringLiteral("龙腾"), QString(), QString()});
        QCOMPARE(editor.candidate(0).upper, QStringLiteral("春回"));
        QCOMPARE(editor.candidate(2).upper, QStringLiteral("龙腾"));
        editor.finishCandidate(5, 0, {QStringLiteral("春回大地"), QStringLiteral("福满人间"), QStringLiteral("万象更新")}, -1.2, {});
        QCOMPARE(editor.candidate(0).hengpi, QStringLiteral("万象更新"));
        QCOMPARE(editor.currentCouplet().lower, QStringLiteral("福满人间"));
        QVERIFY(!shown.isEmpty());
        QCOMPARE(shown.last().at(0).value<CoupletText>().upper, QStringLiteral("春回大地"));
    }

    void aFailedRequestShowsOneRowSayingWhy()
    {
        EditorView editor;
        auto* table = editor.findChild<QTableWidget*>();
        QVERIFY(table);
        const QString error = QStringLiteral("keywords: not allowed: \"a\"");
        editor.beginRequest(6, keywords(4));
        for (int i = 0; i < 4; ++i)
            editor.finishCandidate(6, i, {}, 0, error);
        editor.showFailure(5, QStringLiteral("an older request"));
        QCOMPARE(editor.candidateCount(), 4);
        editor.showFailure(6, error);
        QCOMPARE(editor.candidateCount(), 1);
        QCOMPARE(table->columnSpan(0, 0), int(EditorView::LineCount));
        QVERIFY(table->item(0, 0)->text().contains(error));
        QCOMPARE(table->item(0, EditorView::LineCount)->text(), QStringLiteral("failed"));
        // The message is not a couplet: not in the candidate, not in the edits.
        QVERIFY(editor.candidate(0).upper.isEmpty());
        QVERIFY(editor.currentCouplet().upper.isEmpty());
        // The next request gets its rows back, without the span.
        editor.beginRequest(7, keywords(3));
        QCOMPARE(editor.candidateCount(), 3);
        QCOMPARE(table->columnSpan(0, 0), 1);
        editor.finishCandidate(7, 0, {QStringLiteral("春回大地"), QStringLiteral("福满人间"), QStringLiteral("万象更新")}, -1, {});
        QCOMPARE(editor.candidate(0).upper, QStringLiteral("春回大地"));
        QCOMPARE(editor.currentCouplet().upper, QStringLiteral("春回大地"));
    }

    void newLowerKeepsTheUpperAndHengpi()
    {
        EditorView editor;
        editor.beginRequest(1, keywords(2));
        editor.finishCandidate(1, 0, {QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户欢"), QStringLiteral("万象更新")}, -1, {});
        QSignalSpy spy(&editor, &EditorView::regenerateRequested);
        editor.newLower();
        QCOMPARE(spy.count(), 1);
        const auto spec = spy.at(0).at(0).value<GenerationSpec>();
        QCOMPARE(int(spec.mode), int(PromptMode::Upper));
        QCOMPARE(QString::fromStdString(spec.upper), QStringLiteral("春回大地千山秀"));
        QCOMPARE(spec.length, 7);
        QCOMPARE(QString::fromStdString(spec.hengpi), QStringLiteral("万象更新"));
        QCOMPARE(spec.candidates, 2);
        QCOMPARE(spec.sampling.seed, std::uint64_t(0));

        // Results of the regeneration keep the locked lines.
        editor.beginRequest(2, spec);
        editor.finishCandidate(2, 0, {QStringLiteral("别的上联别的上"), QStringLiteral("新的下联新的下"), QStringLiteral("别的横批")}, -1, {});
        QCOMPARE(editor.candidate(0).upper, QStringLiteral("春回大地千山秀"));
        QCOMPARE(editor.candidate(0).lower, QStringLiteral("新的下联新的下"));
        QCOMPARE(editor.candidate(0).hengpi, QStringLiteral("万象更新"));
    }

    void newHengpiKeepsBothLines()
    {
        EditorView editor;
        editor.showCouplet({QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户欢"), QStringLiteral("万象更新")});
        QSignalSpy spy(&editor, &EditorView::regenerateRequested);
        editor.newHengpi();
        const auto spec = spy.at(0).at(0).value<GenerationSpec>();
        QVERIFY(spec.hengpi.empty());
        QCOMPARE(QString::fromStdString(spec.upper), QStringLiteral("春回大地千山秀"));
        editor.beginRequest(3, spec);
        editor.finishCandidate(3, 0, {QStringLiteral("春回大地千山秀"), QStringLiteral("模型的下联模型"), QStringLiteral("五福临门")}, -1, {});
        QCOMPARE(editor.candidate(0).lower, QStringLiteral("福满人间万户欢"));
        QCOMPARE(editor.candidate(0).hengpi, QStringLiteral("五福临门"));
    }

    void editingALineLocksIt()
    {
        EditorView editor;
        editor.showCouplet({QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户欢"), QStringLiteral("万象更新")});
        QVERIFY(!editor.isLocked(EditorView::Hengpi));
        QLineEdit* hengpi = editor.findChildren<QLineEdit*>().at(EditorView::Hengpi);
        hengpi->selectAll();
        typeText(hengpi, QStringLiteral("五福临门"));
        QVERIFY(editor.isLocked(EditorView::Hengpi));
        QCOMPARE(editor.currentCouplet().hengpi, QStringLiteral("五福临门"));
        QCOMPARE(editor.candidate(0).hengpi, QStringLiteral("五福临门"));
        QCOMPARE(QString::fromStdString(editor.regenerationSpec().hengpi), QStringLiteral("五福临门"));
    }
};

QTEST_MAIN(TestEditorView)
#include "test_editor_view.moc"
