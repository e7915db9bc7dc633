#pragma once

#include "generation_spec.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDate;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSettings;
class QSpinBox;

namespace couplet {

// What to write: the mode and its text, line length, candidates, an optional
// fixed 横批 and the sampling knobs. Enter generates, and the text stays
// selected so the next prompt can be typed straight away.
class PromptPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxCandidates = 8;

    explicit PromptPanel(QWidget* parent = nullptr);

    GenerationSpec spec() const;
    void setSpec(const GenerationSpec& spec);
    // Empty when spec() can be submitted, else what to fix.
    QString problem() const;
    void setGenerateEnabled(bool enabled, const QString& reason = {});

    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

public Q_SLOTS:
    void generate();

Q_SIGNALS:
    void generateRequested(const couplet::GenerationSpec& spec);

protected:
    void changeEvent(QEvent* event) override;

public:
    // The year of the next Spring Festival's couplets on `today`: from March on, the next year's.
    static int comingYear(const QDate& today);

private:
    void buildForm();
    void selectYear(int year); // adds the year to the list when it is not there
    static QString yearText(int year); // 2027 (羊年)
    void retranslateUi();
    void updatePlaceholder();
    QString nameProblem(const QString& name, int length) const;

    QFormLayout* m_form;
    QList<QLabel*> m_labels;
    QComboBox* m_mode;
    QLineEdit* m_text;
    QComboBox* m_position; // 嵌名: where the name stands (data: embed_position.h), for mode Acrostic
    QComboBox* m_length;
    QComboBox* m_year; // the year written for (data 0 = any)
    QSpinBox* m_candidates;
    QLineEdit* m_hengpi;
    QComboBox* m_script; // characters of the output (data: OutputScript)
    QDoubleSpinBox* m_temperature;
    QSpinBox* m_topK;
    QDoubleSpinBox* m_topP;
    QSpinBox* m_seed;
    QCheckBox* m_tone;
    QCheckBox* m_mustAppear; // every keyword in the 上联, by constrained decoding
    QCheckBox* m_mixedZodiac; // more than one year animal may appear
    QPushButton* m_generate;
    QLabel* m_message;
};

} // namespace couplet
