#pragma once

#include "bulk_import.h"

#include "column_mapping.h"

#include <QDialog>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace couplet {

class PosterOptionsBox;

// Sets up a bulk job from a CSV file: the encoding (detected, changeable),
// which column is which (mapped from the header, changeable), a preview of
// the first rows, and where and how to write the results. Reads only the
// first rows, so the file may be any size. "Run on" chooses this computer or
// the `couplet worker`s at a Redis URL; "Posters next to the CSV" draws one
// image per row (PosterOptionsBox). Those choices are remembered.
class CsvImportDialog : public QDialog {
    Q_OBJECT
public:
    static constexpr int kPreviewRows = 20;

    explicit CsvImportDialog(const QString& input, QWidget* parent = nullptr);

    BulkImport import() const;
    // Empty when the file can be run, else what is wrong.
    QString problem() const { return m_problem; }
    const ColumnMapping& mapping() const { return m_mapping; }
    QComboBox* encodingBox() const { return m_encoding; }
    QTableWidget* mappingTable() const { return m_mappingTable; }
    QTableWidget* previewTable() const { return m_preview; }
    QComboBox* runOnBox() const { return m_runOn; }
    // "Choose each couplet from": the bulk default (4 candidates) or the editor's pool (16).
    QComboBox* candidatesBox() const { return m_candidates; }
    QLineEdit* redisUrlField() const { return m_redisUrl; }
    // "No couplet twice in this job" (BulkJobOptions::noRepeats); disabled for workers.
    QCheckBox* noRepeatsBox() const { return m_noRepeats; }
    PosterOptionsBox* postersBox() const { return m_posters; }
    QLineEdit* outputField() const { return m_output; }

    // The combo's encodings: display name and the name parseEncodingName() takes.
    static QList<std::pair<QString, QString>> encodingChoices();

private:
    void buildUi();
    void detectEncoding();
    void reload();
    void fillMapping();
    void fillPreview(const std::vector<std::vector<std::string>>& rows);
    void roleChosen(int column, int roleIndex);
    void chooseOutput();
    void updateState();
    void rememberChoices() const; // run on, the workers' URL, candidates per row

    QString m_input;
    std::vector<std::string> m_header;
    ColumnMapping m_mapping;
    QString m_problem;
    QComboBox* m_encoding;
    QLabel* m_detected;
    QTableWidget* m_mappingTable;
    QTableWidget* m_preview;
    QLineEdit* m_output;
    QComboBox* m_format;
    QComboBox* m_headerLanguage;
    QCheckBox* m_resume;
    QComboBox* m_candidates;
    QCheckBox* m_noRepeats;
    QComboBox* m_runOn;
    QLineEdit* m_redisUrl;
    PosterOptionsBox* m_posters;
    QLabel* m_message;
    QDialogButtonBox* m_buttons;
};

} // namespace couplet
