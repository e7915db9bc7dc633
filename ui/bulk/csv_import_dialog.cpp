#include "csv_import_dialog.h"

#include "poster_options_box.h"

#include "couplet_generator.h"
#include "csv_reader.h"
#include "redis_url.h"
#include "text_encoding.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace couplet {
namespace {

constexpr ColumnRole kRoles[] = {ColumnRole::Id,       ColumnRole::Keywords, ColumnRole::Upper,
                                 ColumnRole::Acrostic, ColumnRole::Embed,    ColumnRole::Position,
                                 ColumnRole::Length,   ColumnRole::Hengpi,   ColumnRole::Year,
                                 ColumnRole::Script,   ColumnRole::Style};

QString roleLabel(ColumnRole role)
{
    switch (role) {
    case ColumnRole::Passthrough: return CsvImportDialog::tr("— (copied to the output)");
    case ColumnRole::Id: return CsvImportDialog::tr("id");
    case ColumnRole::Keywords: return CsvImportDialog::tr("关键词 keywords");
    case ColumnRole::Upper: return CsvImportDialog::tr("上联 upper line");
    case ColumnRole::Acrostic: return CsvImportDialog::tr("藏头 acrostic");
    case ColumnRole::Length: return CsvImportDialog::tr("字数 length");
    case ColumnRole::Hengpi: return CsvImportDialog::tr("横批 hengpi");
    case ColumnRole::Embed: return CsvImportDialog::tr("嵌名 name to embed (two characters)");
    case ColumnRole::Position: return CsvImportDialog::tr("嵌名位置 name position (1-6, last, 燕颔 …)");
    case ColumnRole::Script: return CsvImportDialog::tr("繁简 script (simplified, traditional, taiwan, hongkong)");
    case ColumnRole::Year: return CsvImportDialog::tr("年份 year");
    case ColumnRole::Style: return CsvImportDialog::tr("风格 style");
    }
    return {};
}

QString qs(const std::string& text) { return QString::fromStdString(text); }

} // namespace

QList<std::pair<QString, QString>> CsvImportDialog::encodingChoices()
{
    return {{QStringLiteral("UTF-8"), QStringLiteral("utf-8")},
            {QStringLiteral("UTF-8 BOM"), QStringLiteral("utf-8")},
            {QStringLiteral("UTF-16 LE"), QStringLiteral("utf-16le")},
            {QStringLiteral("UTF-16 BE"), QStringLiteral("utf-16be")},
            {QStringLiteral("GB18030 / GBK"), QStringLiteral("gb18030")}};
}

CsvImportDialog::CsvImportDialog(const QString& input, QWidget* parent)
    : QDialog(parent), m_input(input), m_encoding(new QComboBox), m_detected(new QLabel),
      m_mappingTable(new QTableWidget), m_preview(new QTableWidget), m_output(new QLineEdit),
      m_format(new QComboBox), m_headerLanguage(new QComboBox), m_resume(new QCheckBox), m_candidates(new QComboBox), m_noRepeats(new QCheckBox), m_runOn(new QComboBox), m_redisUrl(new QLineEdit), m_posters(new PosterOptionsBox), m_message(new QLabel),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel))
{
    buildUi();
    detectEncoding();
    const QFileInfo info(input);
    connect(m_output, &QLineEdit::textChanged, m_posters, &PosterOptionsBox::setOutput);
    m_output->setText(info.absolutePath() + QLatin1Char('/') + info.completeBaseName()
                      + QStringLiteral("-couplets.csv"));
    connect(m_encoding, &QComboBox::currentIndexChanged, this, &CsvImportDialog::reload);
    reload();
}

void CsvImportDialog::buildUi()
{
    setWindowTitle(tr("Import prompts from CSV"));
    for (const auto& [label, name] : encodingChoices())
        m_encoding->addItem(label, name);
    m_format->addItems({tr("CSV, UTF-8 with BOM (for Excel)"), tr("CSV, UTF-8"), tr("JSON Lines")});
    m_headerLanguage->addItems({tr("Chinese column names (上联 下联 横批)"), tr("English column names")});
    m_resume->setText(tr("Resume the interrupted job for this file and output"));
    m_candidates->addItem(tr("%1 candidates (fast)").arg(kBulkRerankFactor), 0);
    m_candidates->addItem(tr("%1 candidates, as the editor (about 4x slower)").arg(kRerankPool), kRerankPool);
    m_candidates->setToolTip(tr("A row's couplet is the best of this many sampled. With %1 it is the couplet the editor "
                                "writes for the same prompt and seed.").arg(kRerankPool));
    m_noRepeats->setText(tr("No couplet twice in this job"));
    m_noRepeats->setToolTip(tr("A row whose best couplet shares a line with one already written takes its best candidate "
                               "that does not, for files with many rows of the same request (one couplet per customer). "
                               "More candidates give more to choose from. On this computer only."));
    m_runOn->addItems({tr("This computer"), tr("Workers at")});
    m_redisUrl->setPlaceholderText(QStringLiteral("redis://127.0.0.1:6379"));
    const QSettings settings;
    m_redisUrl->setText(settings.value(QStringLiteral("bulk/redisUrl")).toString());
    m_runOn->setCurrentIndex(settings.value(QStringLiteral("bulk/runOnWorkers"), false).toBool() ? 1 : 0);
    m_candidates->setCurrentIndex(std::max(0, m_candidates->findData(settings.value(QStringLiteral("bulk/candidates"), 0).toInt())));
    m_noRepeats->setChecked(settings.value(QStringLiteral("bulk/noRepeats"), false).toBool());
    m_redisUrl->setEnabled(m_runOn->currentIndex() == 1);
    m_noRepeats->setEnabled(m_runOn->currentIndex() == 0);
    connect(m_runOn, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_redisUrl->setEnabled(index == 1);
        m_noRepeats->setEnabled(index == 0);
        updateState();
    });
    connect(m_redisUrl, &QLineEdit::textChanged, this, &CsvImportDialog::updateState);
    m_mappingTable->setColumnCount(2);
    m_mappingTable->setHorizontalHeaderLabels({tr("Column"), tr("Meaning")});
    m_mappingTable->horizontalHeader()->setStretchLastSection(true);
    m_mappingTable->verticalHeader()->hide();
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #a00000;"));

    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &CsvImportDialog::chooseOutput);
    connect(m_format, &QComboBox::currentIndexChanged, this, [this](int index) {
        const QFileInfo info(m_output->text());
        const QString suffix = index == 2 ? QStringLiteral(".jsonl") : QStringLiteral(".csv");
        m_output->setText(info.absolutePath() + QLatin1Char('/') + info.completeBaseName() + suffix);
    });
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(browse);
    auto* encodingRow = new QHBoxLayout;
    encodingRow->addWidget(m_encoding);
    encodingRow->addWidget(m_detected, 1);

    auto* form = new QFormLayout;
    form->addRow(tr("Input:"), new QLabel(QFileInfo(m_input).fileName()));
    form->addRow(tr("Encoding:"), encodingRow);
    form->addRow(tr("Output:"), outputRow);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Header:"), m_headerLanguage);
    form->addRow(QString(), m_resume);
    form->addRow(tr("Choose each couplet from:"), m_candidates);
    form->addRow(QString(), m_noRepeats);
    auto* runOnRow = new QHBoxLayout;
    runOnRow->addWidget(m_runOn);
    runOnRow->addWidget(m_redisUrl, 1);
    form->addRow(tr("Run on:"), runOnRow);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_posters);
    layout->addWidget(new QLabel(tr("Columns (mapped from the header; change any):")));
    layout->addWidget(m_mappingTable, 1);
    layout->addWidget(new QLabel(tr("First rows:")));
    layout->addWidget(m_preview, 2);
    layout->addWidget(m_message);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        rememberChoices();
        m_posters->remember();
        accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(820, 820);
}

void CsvImportDialog::detectEncoding()
{
    QFile file(m_input);
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QByteArray head = file.read(qint64(kDetectionWindow));
    const DetectedEncoding d = couplet::detectEncoding(std::string_view(head.constData(), head.size()), file.atEnd());
    int index = 0;
    switch (d.encoding) {
    case TextEncoding::Utf8: index = d.bomLength > 0 ? 1 : 0; break;
    case TextEncoding::Utf16Le: index = 2; break;
    case TextEncoding::Utf16Be: index = 3; break;
    case TextEncoding::Gb18030: index = 4; break;
    }
    m_encoding->setCurrentIndex(index);
    m_detected->setText(tr("(detected: %1)").arg(m_encoding->itemText(index)));
}

// Reads the header and the first rows with the chosen encoding; a file that
// does not decode or parse says where.
void CsvImportDialog::reload()
{
    m_problem.clear();
    m_header.clear();
    std::vector<std::vector<std::string>> rows;
    try {
        CsvReaderOptions options;
        options.encoding = parseEncodingName(m_encoding->currentData().toString().toStdString());
        CsvReader reader(m_input.toStdString(), options);
        m_header = reader.header();
        CsvRecord record;
        while (int(rows.size()) < kPreviewRows && reader.next(record))
            rows.push_back(std::move(record.fields));
    } catch (const CsvError& e) {
        m_problem = tr("Line %1, column %2: %3").arg(e.line()).arg(e.column()).arg(qs(e.reason()));
    } catch (const std::exception& e) {
        m_problem = qs(e.what());
    }
    m_mapping = ColumnMapping::fromHeader(m_header);
    fillMapping();
    fillPreview(rows);
    updateState();
}

void CsvImportDialog::fillMapping()
{
    m_mappingTable->setRowCount(int(m_header.size()));
    for (int c = 0; c < int(m_header.size()); ++c) {
        auto* name = new QTableWidgetItem(qs(m_header[std::size_t(c)]));
        name->setFlags(Qt::ItemIsEnabled);
        m_mappingTable->setItem(c, 0, name);
        auto* box = new QComboBox;
        // Each item carries its role: the list is not in the enum's order.
        box->addItem(roleLabel(ColumnRole::Passthrough), int(ColumnRole::Passthrough));
        for (ColumnRole role : kRoles)
            box->addItem(roleLabel(role), int(role));
        box->setCurrentIndex(box->findData(int(m_mapping.roleOf(c))));
        connect(box, &QComboBox::activated, this, [this, c, box](int index) { roleChosen(c, box->itemData(index).toInt()); });
        m_mappingTable->setCellWidget(c, 1, box);
    }
    m_mappingTable->resizeColumnToContents(0);
}

void CsvImportDialog::fillPreview(const std::vector<std::vector<std::string>>& rows)
{
    m_preview->clear();
    m_preview->setColumnCount(int(m_header.size()));
    m_preview->setRowCount(int(rows.size()));
    QStringList labels;
    for (const std::string& name : m_header)
        labels << qs(name);
    m_preview->setHorizontalHeaderLabels(labels);
    for (int r = 0; r < int(rows.size()); ++r)
        for (int c = 0; c < int(rows[std::size_t(r)].size()) && c < int(m_header.size()); ++c)
            m_preview->setItem(r, c, new QTableWidgetItem(qs(rows[std::size_t(r)][std::size_t(c)])));
    m_preview->resizeColumnsToContents();
}

void CsvImportDialog::roleChosen(int column, int roleIndex)
{
    if (roleIndex == 0) {
        if (m_mapping.roleOf(column) != ColumnRole::Passthrough)
            m_mapping.assign(m_mapping.roleOf(column), kNoColumn);
    } else {
        m_mapping.assign(ColumnRole(roleIndex), column);
    }
    // A role moved away from another column: show every column's role again.
    for (int c = 0; c < m_mappingTable->rowCount(); ++c)
        if (auto* box = qobject_cast<QComboBox*>(m_mappingTable->cellWidget(c, 1)))
            box->setCurrentIndex(box->findData(int(m_mapping.roleOf(c))));
    updateState();
}

void CsvImportDialog::chooseOutput()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Results file"), m_output->text(),
                                                      tr("CSV (*.csv);;JSON Lines (*.jsonl)"));
    if (!path.isEmpty())
        m_output->setText(path);
}

void CsvImportDialog::updateState()
{
    QString message = m_problem;
    if (message.isEmpty() && !m_mapping.hasPromptColumn())
        message = tr("No column holds the prompt: choose the keywords, 上联 or 藏头 column.");
    if (message.isEmpty() && m_runOn->currentIndex() == 1) {
        try {
            RedisUrl::parse(m_redisUrl->text().trimmed().toStdString());
        } catch (const RedisUrlError& e) {
            message = tr("Workers' Redis: %1").arg(qs(e.what()));
        }
    }
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(message.isEmpty());
}

void CsvImportDialog::rememberChoices() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("bulk/runOnWorkers"), m_runOn->currentIndex() == 1);
    settings.setValue(QStringLiteral("bulk/candidates"), m_candidates->currentData().toInt());
    settings.setValue(QStringLiteral("bulk/noRepeats"), m_noRepeats->isChecked());
    if (!m_redisUrl->text().trimmed().isEmpty())
        settings.setValue(QStringLiteral("bulk/redisUrl"), m_redisUrl->text().trimmed());
}

BulkImport CsvImportDialog::import() const
{
    BulkImport b;
    b.input = m_input;
    b.output = m_output->text();
    b.encoding = m_encoding->currentData().toString();
    QStringList roles;
    for (ColumnRole role : kRoles)
        roles << QStringLiteral("%1=%2").arg(qs(std::string(ColumnMapping::roleName(role)))).arg(m_mapping.column(role));
    b.mapping = roles.join(QLatin1Char(';'));
    b.jsonLines = m_format->currentIndex() == 2;
    b.bom = m_format->currentIndex() == 0;
    b.englishHeader = m_headerLanguage->currentIndex() == 1;
    b.resume = m_resume->isChecked();
    b.candidatesPerRow = m_candidates->currentData().toInt();
    if (m_runOn->currentIndex() == 1)
        b.redisUrl = m_redisUrl->text().trimmed();
    b.noRepeats = m_noRepeats->isChecked() && m_runOn->currentIndex() == 0;
    b.posters = m_posters->options();
    return b;
}

} // namespace couplet
