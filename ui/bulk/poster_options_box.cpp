#include "poster_options_box.h"

#include "bulk_posters.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSettings>

namespace couplet {
namespace {

constexpr const char* kPrintSizes[] = {"130x23", "160x28", "180x33", "200x36"};

QString key(const char* name) { return QStringLiteral("bulk/posters/") + QLatin1String(name); }

} // namespace

PosterOptionsBox::PosterOptionsBox(QWidget* parent)
    : QGroupBox(parent), m_folder(new QLineEdit), m_format(new QComboBox), m_size(new QComboBox),
      m_font(new QComboBox), m_ink(new QComboBox), m_hengpi(new QCheckBox), m_fu(new QCheckBox)
{
    setTitle(tr("Posters next to the CSV (one per row, named by its id)"));
    setCheckable(true);
    m_format->addItem(tr("Share card, 1080 × 1920 PNG"));
    m_format->addItem(tr("Print PDF (300 dpi, 3 mm bleed)"));
    m_format->addItem(tr("Share card and print PDF"));
    for (const char* size : kPrintSizes)
        m_size->addItem(tr("Lines %1 cm").arg(QString::fromLatin1(size).replace(QLatin1Char('x'), QStringLiteral(" × "))),
                        QString::fromLatin1(size));
    m_font->addItem(tr("Automatic (AR PL UKai, else a font with every character)"), QString());
    for (const QString& family : posterFontFamilies())
        m_font->addItem(family, family);
    m_ink->addItem(tr("Gold characters"), QStringLiteral("gold"));
    m_ink->addItem(tr("Black characters"), QStringLiteral("black"));
    m_hengpi->setText(tr("横批"));
    m_fu->setText(tr("福 square"));

    const QSettings settings;
    setChecked(settings.value(key("on"), false).toBool());
    m_format->setCurrentIndex(qBound(0, settings.value(key("format"), 0).toInt(), 2));
    m_size->setCurrentIndex(qMax(0, m_size->findData(settings.value(key("size")))));
    // A remembered font that is gone falls back to Automatic.
    m_font->setCurrentIndex(qMax(0, m_font->findData(settings.value(key("font")))));
    m_ink->setCurrentIndex(qMax(0, m_ink->findData(settings.value(key("ink")))));
    m_hengpi->setChecked(settings.value(key("hengpi"), true).toBool());
    m_fu->setChecked(settings.value(key("fu"), true).toBool());

    const auto printChosen = [this] { m_size->setEnabled(m_format->currentIndex() != 0); };
    connect(m_format, &QComboBox::currentIndexChanged, this, printChosen);
    printChosen();
    connect(m_folder, &QLineEdit::textEdited, this, [this] { m_folderEdited = true; });

    auto* with = new QHBoxLayout;
    with->addWidget(m_hengpi);
    with->addWidget(m_fu);
    with->addStretch(1);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Folder:"), m_folder);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Print size:"), m_size);
    form->addRow(tr("Font:"), m_font);
    form->addRow(tr("Ink:"), m_ink);
    form->addRow(tr("With:"), with);
}

void PosterOptionsBox::setOutput(const QString& output)
{
    if (m_folderEdited)
        return;
    const QFileInfo info(output);
    m_folder->setText(info.absolutePath() + QLatin1Char('/') + info.completeBaseName() + QStringLiteral("-posters"));
}

BulkPosterOptions PosterOptionsBox::options() const
{
    BulkPosterOptions o;
    if (!isChecked() || m_folder->text().trimmed().isEmpty())
        return o;
    o.dir = m_folder->text().trimmed().toStdString();
    o.card = m_format->currentIndex() != 1;
    o.print = m_format->currentIndex() != 0;
    o.printSize = m_size->currentData().toString().toStdString();
    o.font = m_font->currentData().toString().toStdString();
    o.ink = m_ink->currentData().toString().toStdString();
    o.hengpi = m_hengpi->isChecked();
    o.fu = m_fu->isChecked();
    return o;
}

void PosterOptionsBox::remember() const
{
    QSettings settings;
    settings.setValue(key("on"), isChecked());
    settings.setValue(key("format"), m_format->currentIndex());
    settings.setValue(key("size"), m_size->currentData());
    settings.setValue(key("font"), m_font->currentData());
    settings.setValue(key("ink"), m_ink->currentData());
    settings.setValue(key("hengpi"), m_hengpi->isChecked());
    settings.setValue(key("fu"), m_fu->isChecked());
}

} // namespace couplet
