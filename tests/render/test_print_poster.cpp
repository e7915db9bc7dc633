// The print-ready PDF: one page per piece (上联, 下联, 横批, 福), each the
// piece's trim size plus 3 mm bleed on every side, read back from the PDF's
// MediaBoxes; and the sizes shops sell.
#include "couplet_renderer.h"
#include "print_poster.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace couplet;

class TestPrintPoster : public QObject {
    Q_OBJECT
private:
    const CoupletText m_text{QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户欢"),
                             QStringLiteral("万象更新")};

    // Every page's MediaBox as width x height in points, in page order (Qt
    // writes the page objects in order, uncompressed).
    static QList<QSizeF> mediaBoxes(const QString& path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) return {};
        const QString pdf = QString::fromLatin1(file.readAll());
        static const QRegularExpression box(
            QStringLiteral(R"(/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\])"));
        QList<QSizeF> sizes;
        for (auto it = box.globalMatch(pdf); it.hasNext();) {
            const auto m = it.next();
            sizes.append(QSizeF(m.captured(3).toDouble() - m.captured(1).toDouble(),
                                m.captured(4).toDouble() - m.captured(2).toDouble()));
        }
        return sizes;
    }

    static double points(double mm) { return mm * 72.0 / 25.4; }

private Q_SLOTS:
    void sizesParse()
    {
        QCOMPARE(printSizes().size(), 4);
        QCOMPARE(parsePrintSize(QStringLiteral("160x28")), std::optional(PrintSize{160, 28}));
        QCOMPARE(parsePrintSize(QStringLiteral(" 200×36 ")), std::optional(PrintSize{200, 36}));
        QCOMPARE(parsePrintSize(QStringLiteral("150x20")), std::nullopt);
        QCOMPARE(parsePrintSize(QStringLiteral("130")), std::nullopt);
    }

    void pagesAreTrimPlusBleedAtEverySize_data()
    {
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        for (const PrintSize& s : printSizes())
            QTest::newRow(qPrintable(printSizeName(s))) << s.lineHeightCm << s.lineWidthCm;
    }

    void pagesAreTrimPlusBleedAtEverySize()
    {
        QFETCH(int, height);
        QFETCH(int, width);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("print.pdf"));
        QCOMPARE(writePrintPoster(path, m_text, PrintSize{height, width}), QString());
        const QList<QSizeF> boxes = mediaBoxes(path);
        QCOMPARE(boxes.size(), 4);
        const double w = width * 10.0, h = height * 10.0;   // mm
        const QList<QSizeF> expected{{w + 6, h + 6},                       // 上联
                                     {w + 6, h + 6},                       // 下联
                                     {w * (0.9 * 4 + 0.9) + 6, w + 6},     // 横批, four characters
                                     {2 * w + 6, 2 * w + 6}};              // 福
        for (int i = 0; i < 4; ++i) {
            const QSizeF want(points(expected[i].width()), points(expected[i].height()));
            if (std::abs(boxes[i].width() - want.width()) > 0.6 || std::abs(boxes[i].height() - want.height()) > 0.6)
                QFAIL(qPrintable(QStringLiteral("page %1 is %2 x %3 pt, expected %4 x %5 pt")
                                     .arg(i + 1).arg(boxes[i].width()).arg(boxes[i].height())
                                     .arg(want.width()).arg(want.height())));
        }
    }

    void withoutHengpiAndFuOnlyTheLines()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lines.pdf"));
        CoupletStyle style;
        style.showHengpi = false;
        style.showFuDiamond = false;
        QCOMPARE(writePrintPoster(path, m_text, PrintSize{180, 33}, style), QString());
        const QList<QSizeF> boxes = mediaBoxes(path);
        QCOMPARE(boxes.size(), 2);
        QVERIFY(std::abs(boxes[1].height() - points(1806)) < 0.6);
    }

    void theTextIsDrawnAsVectors()
    {
        // The glyphs are embedded as a font, not as a picture of the page.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("print.pdf"));
        QCOMPARE(writePrintPoster(path, m_text, PrintSize{130, 23}), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray pdf = file.readAll();
        QVERIFY(pdf.contains("/FontFile2") || pdf.contains("/FontFile"));
        QVERIFY(!pdf.contains("/Subtype /Image"));
        QVERIFY(writePrintPoster(dir.filePath(QStringLiteral("no/such/dir/x.pdf")), m_text, PrintSize{})
                    .contains(QStringLiteral("cannot write")));
    }
};

QTEST_MAIN(TestPrintPoster)
#include "test_print_poster.moc"
