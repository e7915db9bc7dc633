#include "preview/couplet_exporter.h"
#include "preview/couplet_preview.h"

#include <QFile>
#include <QFontDatabase>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace couplet;

class TestCoupletPreview : public QObject {
    Q_OBJECT
private:
    const CoupletText m_text{QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户欢"),
                             QStringLiteral("万象更新")};

    static int countRedPixels(const QImage& image)
    {
        int red = 0;
        for (int y = 0; y < image.height(); y += 4) {
            for (int x = 0; x < image.width(); x += 4) {
                const QColor c = image.pixelColor(x, y);
                red += c.red() > 150 && c.green() < 60 && c.blue() < 60;
            }
        }
        return red;
    }

private Q_SLOTS:
    void widgetPaintsRedPaperAndInk()
    {
        CoupletPreview preview;
        preview.resize(400, 500);
        preview.setCouplet(m_text);
        const QImage image = preview.grab().toImage();
        QCOMPARE(image.size(), QSize(400, 500));
        QVERIFY(countRedPixels(image) > 200);

        // The 上联 is on the right: the right column differs from the empty couplet's.
        CoupletPreview empty;
        empty.resize(400, 500);
        empty.setCouplet({QString(), QString(), QString()});
        const QImage blank = empty.grab().toImage();
        QVERIFY(image.copy(300, 120, 100, 380) != blank.copy(300, 120, 100, 380));
        QVERIFY(image.copy(0, 120, 100, 380) != blank.copy(0, 120, 100, 380));
    }

    void prefersTheBrushFont()
    {
        const QString family = CoupletRenderer::brushFontFamily();
        QVERIFY(!family.isEmpty());
        if (!QFontDatabase::families().contains(QStringLiteral("AR PL UKai CN")))
            QSKIP("fonts-arphic-ukai is not installed");
        QCOMPARE(family, QStringLiteral("AR PL UKai CN"));
    }

    void exportsPngAtTheChosenHeight()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.png"));
        QCOMPARE(CoupletExporter().exportPng(path, m_text, 1200), QString());
        const QImage image(path);
        QCOMPARE(image.height(), 1200);
        QCOMPARE(image.size(), CoupletExporter::sizeForHeight(m_text, 1200));
        QVERIFY(image.width() > 500 && image.width() < 1200);
        QVERIFY(countRedPixels(image) > 1000);
    }

    void exportsSvgAndPdf()
    {
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("c.svg"));
        const QString pdf = dir.filePath(QStringLiteral("c.pdf"));
        CoupletExporter exporter;
        QCOMPARE(exporter.exportSvg(svg, m_text, 800), QString());
        QCOMPARE(exporter.exportPdf(pdf, m_text, 200), QString());

        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QString content = QString::fromUtf8(svgFile.readAll());
        const QSize size = CoupletExporter::sizeForHeight(m_text, 800);
        QVERIFY(content.contains(QStringLiteral("<svg")));
        QVERIFY(content.contains(QStringLiteral("viewBox=\"0 0 %1 %2\"").arg(size.width()).arg(size.height())));
        QVERIFY(content.contains(QStringLiteral("春")));

        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdfFile.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY(bytes.size() > 2000);
    }

    // Traditional text (頭髮, 這裏) is drawn in a font that has its glyphs: a
    // font without them (DejaVu Sans writes no Han) is passed over.
    void traditionalTextGetsAFontWithItsGlyphs()
    {
        const CoupletText traditional{QStringLiteral("頭髮烏黑添喜氣"), QStringLiteral("乾淨門庭發財福"),
                                      QStringLiteral("萬象更新")};
        const QString latin = QStringLiteral("DejaVu Sans");
        if (!QFontDatabase::families().contains(latin))
            QFAIL("DejaVu Sans is not installed (fonts-dejavu-core): the test needs a font without Han glyphs");
        QVERIFY(CoupletRenderer::missingGlyphs(traditional, latin).contains(QStringLiteral("髮")));
        const QString chosen = CoupletRenderer::familyWithGlyphs(traditional, latin);
        QVERIFY(chosen != latin);
        QCOMPARE(CoupletRenderer::missingGlyphs(traditional, chosen), QString());
        const QString brush = CoupletRenderer::brushFontFamily();
        if (CoupletRenderer::missingGlyphs(traditional, brush).isEmpty())
            QCOMPARE(CoupletRenderer::familyWithGlyphs(traditional, brush), brush);
    }

    void reportsAnUnwritablePath()
    {
        const QString error = CoupletExporter().exportPng(QStringLiteral("/nonexistent/dir/c.png"), m_text, 100);
        QVERIFY(error.contains(QStringLiteral("/nonexistent/dir/c.png")));
    }
};

QTEST_MAIN(TestCoupletPreview)
#include "test_couplet_preview.moc"
