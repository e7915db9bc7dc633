#include "source_dir.h"
#include "bulk/csv_import_dialog.h"

#include <QComboBox>
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
};

QTEST_MAIN(TestCsvImportDialog)
#include "test_csv_import_dialog.moc"
