// The share card: one couplet drawn by the app's renderer (render/, QtGui
// only) at 1080 x 1920, as PNG or a PDF page, and `couplet generate
// --poster` writing one from the installed CLI with no display.
#include "couplet_renderer.h"
#include "share_card.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace couplet;

class TestShareCard : public QObject {
    Q_OBJECT
private:
    const CoupletText m_text{QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户欢"),
                             QStringLiteral("万象更新")};

    static int redPixels(const QImage& image)
    {
        int red = 0;
        for (int y = 0; y < image.height(); y += 8)
            for (int x = 0; x < image.width(); x += 8) {
                const QColor c = image.pixelColor(x, y);
                red += c.red() > 150 && c.green() < 60 && c.blue() < 60;
            }
        return red;
    }

private Q_SLOTS:
    void cardIsPhoneSizedAndRed()
    {
        const QImage card = renderShareCard(m_text);
        QCOMPARE(card.size(), QSize(1080, 1920));
        QVERIFY(redPixels(card) > 2000);
        // The text is drawn: an empty couplet leaves the paper plain.
        QVERIFY(card != renderShareCard(CoupletText{}));
    }

    void writesPngAndPdf()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("card.png")), pdf = dir.filePath(QStringLiteral("card.pdf"));
        QCOMPARE(writeShareCard(png, m_text), QString());
        QCOMPARE(QImage(png).size(), QSize(1080, 1920));
        QCOMPARE(writeShareCard(pdf, m_text), QString());
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.read(5) == "%PDF-");
        QVERIFY(writeShareCard(dir.filePath(QStringLiteral("no/such/folder/card.png")), m_text).contains(QStringLiteral("cannot write")));
    }

    void theCliWritesAPosterWithoutADisplay()
    {
        const QString cli = qEnvironmentVariable("COUPLET_CLI");
        if (cli.isEmpty())
            QFAIL("COUPLET_CLI is not set (tests/render/CMakeLists.txt sets it)");
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("card.png"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("DISPLAY"));
        process.setProcessEnvironment(env);
        process.start(cli, {QStringLiteral("generate"), QStringLiteral("--keywords"), QStringLiteral("五福"),
                            QStringLiteral("--seed"), QStringLiteral("1"), QStringLiteral("--script"),
                            QStringLiteral("traditional"), QStringLiteral("--poster"), png});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(process.readAllStandardError().contains("poster: "));
        const QImage card(png);
        QCOMPARE(card.size(), QSize(1080, 1920));
        QVERIFY(redPixels(card) > 2000);
    }
};

QTEST_MAIN(TestShareCard)
#include "test_share_card.moc"
