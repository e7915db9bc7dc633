#include "source_dir.h"
#include "bulk/csv_import_dialog.h"
#include "couplet_generator.h"
#include "bulk/poster_options_box.h"

#include "couplet_renderer.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using namespace couplet;

class TestCsvImportDialog : public QObject {
    Q_OBJECT
private:
    static QString data(const char* name)
    {
        return QStringLiteral(COUPLET_SOURCE_DIR "/tests/data/csv/") + QString::fromLatin1(name);
    }

    static QComboBox* roleBox(CsvImportDialog& dialog, int column)
    {
        return qobject_cast<QComboBox*>(dialog.mappingTable()->cellWidget(column, 1));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("bulk/posters"));
    }

    void detectsGbkAndMapsTheChineseHeader()
    {
        CsvImportDialog dialog(data("excel_gbk.csv"));
        QCOMPARE(dialog.encodingBox()->currentData().toString(), QStringLiteral("gb18030"));
        QCOMPARE(dialog.problem(), QString());
        QCOMPARE(dialog.mappingTable()->rowCount(), 3);
        QCOMPARE(dialog.mappingTable()->item(1, 0)->text(), QStringLiteral("关键词"));
        QCOMPARE(dialog.mapping().column(ColumnRole::Keywords), 1);
        QCOMPARE(dialog.mapping().column(ColumnRole::Length), 2);
        QCOMPARE(roleBox(dialog, 1)->currentIndex(), int(ColumnRole::Keywords));

        QTableWidget* preview = dialog.previewTable();
        QVERIFY(preview->rowCount() >= 3);
        QCOMPARE(preview->item(2, 1)->text(), QStringLiteral("春回,大地"));
        QCOMPARE(preview->item(2, 2)->text(), QStringLiteral("九"));

        const BulkImport b = dialog.import();
        QCOMPARE(b.encoding, QStringLiteral("gb18030"));
        QVERIFY(b.mapping.contains(QStringLiteral("keywords=1")));
        QVERIFY(b.mapping.contains(QStringLiteral("upper=-1")));
        QVERIFY(b.output.endsWith(QStringLiteral("excel_gbk-couplets.csv")));

        // Each row chosen from the bulk default, or from the editor's pool of candidates.
        QCOMPARE(dialog.candidatesBox()->count(), 2);
        dialog.candidatesBox()->setCurrentIndex(1);
        QCOMPARE(dialog.import().candidatesPerRow, kRerankPool);
        dialog.candidatesBox()->setCurrentIndex(0);
        QCOMPARE(dialog.import().candidatesPerRow, 0);

        // No couplet twice: on this computer only (workers keep each row's best alone).
        dialog.runOnBox()->setCurrentIndex(0);
        dialog.noRepeatsBox()->setChecked(true);
        QVERIFY(dialog.noRepeatsBox()->isEnabled());
        QVERIFY(dialog.import().noRepeats);
        dialog.runOnBox()->setCurrentIndex(1);
        QVERIFY(!dialog.noRepeatsBox()->isEnabled());
        QVERIFY(!dialog.import().noRepeats);
        dialog.runOnBox()->setCurrentIndex(0);
        dialog.noRepeatsBox()->setChecked(false);
        QVERIFY(!dialog.import().noRepeats);
    }

    void theWrongEncodingSaysWhereItFails()
    {
        CsvImportDialog dialog(data("excel_gbk.csv"));
        dialog.encodingBox()->setCurrentIndex(0);   // UTF-8
        QVERIFY(dialog.problem().startsWith(QStringLiteral("Line ")));
        dialog.encodingBox()->setCurrentIndex(4);   // GB18030 again
        QCOMPARE(dialog.problem(), QString());
    }

    void aRoleMovesToTheChosenColumn()
    {
        CsvImportDialog dialog(data("excel_gbk.csv"));
        // Column 0 (序号) becomes the keywords; column 1 loses the role.
        QComboBox* box = roleBox(dialog, 0);
        box->setCurrentIndex(int(ColumnRole::Keywords));
        Q_EMIT box->activated(int(ColumnRole::Keywords));
        QCOMPARE(dialog.mapping().column(ColumnRole::Keywords), 0);
        QCOMPARE(roleBox(dialog, 1)->currentIndex(), int(ColumnRole::Passthrough));

        // No prompt column left: the dialog refuses to run.
        box->setCurrentIndex(0);
        Q_EMIT box->activated(0);
        QVERIFY(!dialog.mapping().hasPromptColumn());
        QVERIFY(dialog.import().mapping.contains(QStringLiteral("keywords=-1")));
    }

    // "Posters next to the CSV": off at first; the choices reach the import
    // (the folder follows the results file) and are remembered on OK.
    void posterChoicesArePassedOnAndRemembered()
    {
        {
            CsvImportDialog dialog(data("excel_gbk.csv"));
            PosterOptionsBox* box = dialog.postersBox();
            QVERIFY(!box->isChecked());
            QVERIFY(dialog.import().posters.dir.empty());
            box->setChecked(true);
            QVERIFY(!box->sizeBox()->isEnabled());   // a share card has one size
            box->formatBox()->setCurrentIndex(2);    // both
            QVERIFY(box->sizeBox()->isEnabled());
            box->sizeBox()->setCurrentIndex(1);
            // Every font offered writes a couplet's common characters.
            QCOMPARE(box->fontBox()->itemData(0).toString(), QString());
            const CoupletText sample{QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户新"), QStringLiteral("迎春接福")};
            for (int i = 1; i < box->fontBox()->count(); ++i)
                QCOMPARE(CoupletRenderer::missingGlyphs(sample, box->fontBox()->itemData(i).toString()), QString());
            if (box->fontBox()->count() > 1)
                box->fontBox()->setCurrentIndex(1);
            BulkImport b = dialog.import();
            const QFileInfo output(b.output);
            QCOMPARE(QString::fromStdString(b.posters.dir.string()),
                     output.absolutePath() + QStringLiteral("/excel_gbk-couplets-posters"));
            QVERIFY(b.posters.card && b.posters.print);
            QCOMPARE(b.posters.printSize, std::string("160x28"));
            QCOMPARE(QString::fromStdString(b.posters.font), box->fontBox()->currentData().toString());
            dialog.outputField()->setText(output.absolutePath() + QStringLiteral("/campaign.csv"));
            QCOMPARE(QString::fromStdString(dialog.import().posters.dir.string()),
                     output.absolutePath() + QStringLiteral("/campaign-posters"));

            // With COUPLET_TEST_SCREENSHOTS=DIR (under xvfb-run), the dialog as a user sees it.
            const QString shots = qEnvironmentVariable("COUPLET_TEST_SCREENSHOTS");
            if (!shots.isEmpty()) {
                dialog.show();
                QVERIFY(QTest::qWaitForWindowExposed(&dialog));
                QTest::qWait(200);
                QVERIFY(dialog.grab().save(shots + QStringLiteral("/csv-import-posters.png")));
            }
            dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        }
        CsvImportDialog again(data("excel_gbk.csv"));
        PosterOptionsBox* box = again.postersBox();
        QVERIFY(box->isChecked());
        QCOMPARE(box->formatBox()->currentIndex(), 2);
        QCOMPARE(box->sizeBox()->currentData().toString(), QStringLiteral("160x28"));
        QCOMPARE(box->fontBox()->currentIndex(), box->fontBox()->count() > 1 ? 1 : 0);
    }
};

QTEST_MAIN(TestCsvImportDialog)
#include "test_csv_import_dialog.moc"
