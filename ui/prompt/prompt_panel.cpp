#include "prompt_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDate>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include "embed_position.h"
#include "spring_festival.h"
#include "zodiac.h"

#include <climits>

namespace couplet {
namespace {

constexpr int kLengths[] = {5, 7, 9, 11, 0}; // Han characters (a 九言 line's mark does not count); 0 = free length
constexpr int kMaxHengpiChars = 4;
constexpr int kPositions[] = {1, 2, 3, 4, 5, 6, kEmbedLast};

QString settingsKey(const char* name) { return QStringLiteral("prompt/") + QLatin1String(name); }

} // namespace

PromptPanel::PromptPanel(QWidget* parent)
    : QWidget(parent), m_form(new QFormLayout), m_mode(new QComboBox(this)), m_text(new QLineEdit(this)),
      m_position(new QComboBox(this)), m_length(new QComboBox(this)), m_year(new QComboBox(this)), m_candidates(new QSpinBox(this)), m_hengpi(new QLineEdit(this)),
      m_script(new QComboBox(this)),
      m_temperature(new QDoubleSpinBox(this)), m_topK(new QSpinBox(this)),
      m_topP(new QDoubleSpinBox(this)), m_seed(new QSpinBox(this)), m_tone(new QCheckBox(this)),
      m_mustAppear(new QCheckBox(this)), m_mixedZodiac(new QCheckBox(this)), m_generate(new QPushButton(this)), m_message(new QLabel(this))
{
    buildForm();
    connect(m_text, &QLineEdit::returnPressed, this, &PromptPanel::generate);
    connect(m_hengpi, &QLineEdit::returnPressed, this, &PromptPanel::generate);
    connect(m_generate, &QPushButton::clicked, this, &PromptPanel::generate);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &PromptPanel::updatePlaceholder);
    retranslateUi();
}

void PromptPanel::buildForm()
{
    for (int i = 0; i < 3; ++i)
        m_mode->addItem(QString());
    for (int length : kLengths)
        m_length->addItem(QString(), length);
    for (int at : kPositions)
        m_position->addItem(QString(), at);
    for (OutputScript script : {OutputScript::Simplified, OutputScript::Traditional, OutputScript::Taiwan,
                                OutputScript::TaiwanPhrases, OutputScript::HongKong})
        m_script->addItem(QString(), int(script));
    m_length->setCurrentIndex(1);
    const int coming = comingYear(QDate::currentDate());
    m_year->addItem(QString(), 0);
    for (int year = coming - 1; year <= coming + 10; ++year)
        m_year->addItem(QString(), year);
    m_year->setCurrentIndex(m_year->findData(coming));
    m_candidates->setRange(1, kMaxCandidates);
    m_candidates->setValue(3);
    m_hengpi->setMaxLength(kMaxHengpiChars);
    m_temperature->setRange(0.05, 2.0);
    m_temperature->setSingleStep(0.05);
    m_temperature->setValue(0.8);
    m_topK->setRange(0, 500);
    m_topK->setValue(40);
    m_topP->setRange(0.05, 1.0);
    m_topP->setSingleStep(0.05);
    m_topP->setValue(0.95);
    m_seed->setRange(0, INT_MAX);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #b00000;"));
    m_message->hide();
    m_generate->setDefault(true);
    QFont big = m_text->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    m_text->setFont(big);

    for (QWidget* field : std::initializer_list<QWidget*>{m_mode, m_text, m_position, m_length, m_year, m_candidates, m_hengpi,
                                                          m_script, m_temperature, m_topK, m_topP, m_seed}) {
        m_labels << new QLabel(this);
        m_form->addRow(m_labels.back(), field);
    }
    m_form->addRow(m_tone);
    m_form->addRow(m_mustAppear);
    m_form->addRow(m_mixedZodiac);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(m_form);
    layout->addWidget(m_message);
    layout->addWidget(m_generate);
    layout->addStretch(1);
}

void PromptPanel::retranslateUi()
{
    m_mode->setItemText(0, tr("Keywords (关键词)"));
    m_mode->setItemText(1, tr("Given 上联 (对下联)"));
    m_mode->setItemText(2, tr("Name (嵌名, 藏头)"));
    const QStringList positions = {tr("1st character: 鹤顶格 (藏头)"), tr("2nd: 燕颔格"), tr("3rd: 鸢肩格"),
                                   tr("4th: 蜂腰格"), tr("5th: 鹤膝格 (7 or 9 characters)"),
                                   tr("6th: 凫胫格 (7 or 9 characters)"), tr("Last: 雁足格")};
    for (int i = 0; i < positions.size(); ++i)
        m_position->setItemText(i, positions[i]);
    m_position->setToolTip(tr("Where the name stands: its first character in the 上联, its second in the 下联. "
                              "A name has two characters; for a full name such as 张德顺 enter the given name 德顺."));
    m_length->setItemText(0, tr("5 characters"));
    m_length->setItemText(1, tr("7 characters"));
    m_length->setItemText(2, tr("9 characters"));
    m_length->setItemText(3, tr("11 characters"));
    m_length->setItemText(4, tr("Free length"));
    m_year->setItemText(0, tr("Any year"));
    for (int i = 1; i < m_year->count(); ++i)
        m_year->setItemText(i, yearText(m_year->itemData(i).toInt()));
    m_year->setToolTip(tr("The Spring Festival the couplet is for. Its animal (羊 for 2027) is the only year animal "
                          "written, unless the prompt names another; no 金猴 or 龙年 in a goat year."));
    const QStringList labels = {tr("Mode"), tr("Prompt"), tr("Name position"), tr("Line length"), tr("Year"), tr("Candidates"),
                                tr("Fixed 横批"), tr("Characters"), tr("Temperature"), tr("Top-k"), tr("Top-p"),
                                tr("Seed")};
    for (int row = 0; row < labels.size(); ++row)
        m_labels[row]->setText(labels[row]);
    m_hengpi->setPlaceholderText(tr("empty: the model picks one"));
    const QStringList scripts = {tr("Simplified 简体"), tr("Traditional 繁體"), tr("Taiwan 臺灣正體"),
                                 tr("Taiwan, with its modern words (s2twp)"), tr("Hong Kong 香港繁體")};
    for (int i = 0; i < scripts.size(); ++i)
        m_script->setItemText(i, scripts[i]);
    m_script->setToolTip(tr("The model writes Simplified; the chosen couplet is converted by phrase (OpenCC), "
                            "so that 头发 becomes 頭髮 and 发展 發展."));
    m_seed->setSpecialValueText(tr("random"));
    m_topK->setSpecialValueText(tr("off"));
    m_tone->setText(tr("Tone pattern: 上联 ends 仄, 下联 ends 平"));
    m_mustAppear->setText(tr("Every keyword must appear (in the 上联)"));
    m_mixedZodiac->setText(tr("Several year animals (辞旧迎新)"));
    m_mixedZodiac->setToolTip(tr("By default a couplet names one year animal: the prompt's, or the first the 上联 names. "
                                 "Check this for couplets that see one year out and the next in (金蛇辞旧岁 / 骏马迎新春)."));
    m_generate->setText(tr("Generate (Enter)"));
    updatePlaceholder();
}

void PromptPanel::updatePlaceholder()
{
    switch (m_mode->currentIndex()) {
    case 0: m_text->setPlaceholderText(tr("e.g. 龙年 五福 (space separated)")); break;
    case 1: m_text->setPlaceholderText(tr("e.g. 春回大地千山秀")); break;
    default: m_text->setPlaceholderText(tr("e.g. 德顺 (one character in 上联, one in 下联)")); break;
    }
    m_position->setEnabled(m_mode->currentIndex() == int(PromptMode::Acrostic));
}

GenerationSpec PromptPanel::spec() const
{
    GenerationSpec spec;
    spec.mode = static_cast<PromptMode>(m_mode->currentIndex());
    const std::string text = m_text->text().trimmed().toStdString();
    switch (spec.mode) {
    case PromptMode::Keywords: spec.keywords = text; break;
    case PromptMode::Upper: spec.upper = text; break;
    case PromptMode::Acrostic:
        spec.acrostic = text;
        spec.embedAt = m_position->currentData().toInt();
        break;
    }
    spec.length = m_length->currentData().toInt();
    spec.candidates = m_candidates->value();
    spec.hengpi = m_hengpi->text().trimmed().toStdString();
    spec.script = OutputScript(m_script->currentData().toInt());
    spec.tonePattern = m_tone->isChecked();
    spec.keywordsMustAppear = m_mustAppear->isChecked() && spec.mode == PromptMode::Keywords;
    spec.mixedZodiac = m_mixedZodiac->isChecked();
    spec.year = m_year->currentData().toInt();
    spec.sampling.temperature = float(m_temperature->value());
    spec.sampling.topK = m_topK->value();
    spec.sampling.topP = float(m_topP->value());
    spec.sampling.seed = std::uint64_t(m_seed->value());
    return spec;
}

void PromptPanel::setSpec(const GenerationSpec& spec)
{
    m_mode->setCurrentIndex(int(spec.mode));
    const std::string& text = spec.mode == PromptMode::Keywords ? spec.keywords
                              : spec.mode == PromptMode::Upper  ? spec.upper
                                                                : spec.acrostic;
    m_text->setText(QString::fromStdString(text));
    const int positionIndex = m_position->findData(spec.embedAt);
    m_position->setCurrentIndex(positionIndex < 0 ? 0 : positionIndex);
    const int lengthIndex = m_length->findData(spec.length);
    m_length->setCurrentIndex(lengthIndex < 0 ? m_length->findData(0) : lengthIndex);
    m_candidates->setValue(spec.candidates);
    m_hengpi->setText(QString::fromStdString(spec.hengpi));
    m_script->setCurrentIndex(std::max(0, m_script->findData(int(spec.script))));
    m_tone->setChecked(spec.tonePattern);
    m_mustAppear->setChecked(spec.keywordsMustAppear);
    m_mixedZodiac->setChecked(spec.mixedZodiac);
    selectYear(spec.year);
    m_temperature->setValue(spec.sampling.temperature);
    m_topK->setValue(spec.sampling.topK);
    m_topP->setValue(spec.sampling.topP);
    m_seed->setValue(int(std::min<std::uint64_t>(spec.sampling.seed, INT_MAX)));
}

QString PromptPanel::problem() const
{
    const QString text = m_text->text().trimmed();
    if (text.isEmpty() && m_mode->currentIndex() != 0)
        return tr("Enter the text for this mode first.");
    const int length = m_length->currentData().toInt();
    if (m_mode->currentIndex() == 1 && length > 0 && text.toUcs4().size() != length)
        return tr("The 上联 has %1 characters but the line length is %2.")
            .arg(text.toUcs4().size()).arg(length);
    if (m_mode->currentIndex() == int(PromptMode::Acrostic))
        if (QString name = nameProblem(text, length); !name.isEmpty()) return name;
    const QString hengpi = m_hengpi->text().trimmed();
    if (!hengpi.isEmpty() && hengpi.toUcs4().size() != kMaxHengpiChars)
        return tr("A 横批 has four characters; \"%1\" has %2.").arg(hengpi).arg(hengpi.toUcs4().size());
    return {};
}

QString PromptPanel::nameProblem(const QString& name, int length) const
{
    const auto characters = name.toUcs4().size();
    if (characters > 2)
        return tr("A name to embed has two characters, one for each line; \"%1\" has %2. For a full name such as "
                  "张德顺 enter the given name, 德顺.").arg(name).arg(characters);
    const int at = m_position->currentData().toInt();
    if (auto problem = embedPositionProblem(at, length); !problem.empty()) return QString::fromStdString(problem);
    return {};
}

void PromptPanel::generate()
{
    const QString message = problem();
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
    if (!message.isEmpty() || !m_generate->isEnabled())
        return;
    Q_EMIT generateRequested(spec());
    m_text->selectAll();
}

void PromptPanel::setGenerateEnabled(bool enabled, const QString& reason)
{
    m_generate->setEnabled(enabled);
    m_generate->setToolTip(reason);
}

void PromptPanel::saveSettings(QSettings& settings) const
{
    settings.setValue(settingsKey("mode"), m_mode->currentIndex());
    settings.setValue(settingsKey("text"), m_text->text());
    settings.setValue(settingsKey("embedAt"), m_position->currentData().toInt());
    settings.setValue(settingsKey("length"), m_length->currentIndex());
    settings.setValue(settingsKey("candidates"), m_candidates->value());
    settings.setValue(settingsKey("hengpi"), m_hengpi->text());
    settings.setValue(settingsKey("script"), m_script->currentData().toInt());
    settings.setValue(settingsKey("temperature"), m_temperature->value());
    settings.setValue(settingsKey("topK"), m_topK->value());
    settings.setValue(settingsKey("topP"), m_topP->value());
    settings.setValue(settingsKey("seed"), m_seed->value());
    settings.setValue(settingsKey("tone"), m_tone->isChecked());
    settings.setValue(settingsKey("keywordsMustAppear"), m_mustAppear->isChecked());
    settings.setValue(settingsKey("mixedZodiac"), m_mixedZodiac->isChecked());
    settings.setValue(settingsKey("year"), m_year->currentData().toInt());
}

void PromptPanel::restoreSettings(const QSettings& settings)
{
    m_mode->setCurrentIndex(settings.value(settingsKey("mode"), m_mode->currentIndex()).toInt());
    m_text->setText(settings.value(settingsKey("text"), m_text->text()).toString());
    if (const int i = m_position->findData(settings.value(settingsKey("embedAt"), 1).toInt()); i >= 0)
        m_position->setCurrentIndex(i);
    m_length->setCurrentIndex(settings.value(settingsKey("length"), m_length->currentIndex()).toInt());
    m_candidates->setValue(settings.value(settingsKey("candidates"), m_candidates->value()).toInt());
    m_hengpi->setText(settings.value(settingsKey("hengpi"), m_hengpi->text()).toString());
    if (const int i = m_script->findData(settings.value(settingsKey("script"), 0).toInt()); i >= 0)
        m_script->setCurrentIndex(i);
    m_temperature->setValue(settings.value(settingsKey("temperature"), m_temperature->value()).toDouble());
    m_topK->setValue(settings.value(settingsKey("topK"), m_topK->value()).toInt());
    m_topP->setValue(settings.value(settingsKey("topP"), m_topP->value()).toDouble());
    m_seed->setValue(settings.value(settingsKey("seed"), m_seed->value()).toInt());
    m_tone->setChecked(settings.value(settingsKey("tone"), m_tone->isChecked()).toBool());
    m_mustAppear->setChecked(settings.value(settingsKey("keywordsMustAppear"), m_mustAppear->isChecked()).toBool());
    m_mixedZodiac->setChecked(settings.value(settingsKey("mixedZodiac"), m_mixedZodiac->isChecked()).toBool());
    // A year already past is last season's choice: the coming year stays.
    const int year = settings.value(settingsKey("year"), m_year->currentData()).toInt();
    if (year == 0 || year >= comingYear(QDate::currentDate())) selectYear(year);
}

int PromptPanel::comingYear(const QDate& today)
{
    using namespace std::chrono;
    return comingSpringFestivalYear(year_month_day{year{today.year()}, month{static_cast<unsigned>(today.month())},
                                                   day{static_cast<unsigned>(today.day())}});
}

QString PromptPanel::yearText(int year)
{
    const char32_t animal = kZodiacAnimals[static_cast<std::size_t>(zodiacOfYear(year))];
    return tr("%1 (%2年)").arg(year).arg(QString::fromUcs4(&animal, 1));
}

void PromptPanel::selectYear(int year)
{
    if (year < 0 || year > kMaxYear) year = 0;
    int index = m_year->findData(year);
    if (index < 0) {
        m_year->addItem(yearText(year), year);
        index = m_year->count() - 1;
    }
    m_year->setCurrentIndex(index);
}

void PromptPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace couplet
