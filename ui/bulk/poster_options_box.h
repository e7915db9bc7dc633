#pragma once

#include "bulk_poster_sink.h"

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace couplet {

// The import dialog's "Posters next to the CSV": one share card (PNG) and/or
// print PDF per ok row, named by the row's id, in a folder beside the
// results file. Format, print size, font (only installed Chinese fonts that
// have the couplet's characters), ink, with or without 横批 and 福; every
// choice is remembered.
class PosterOptionsBox : public QGroupBox {
    Q_OBJECT
public:
    explicit PosterOptionsBox(QWidget* parent = nullptr);

    // The folder follows the results file (NAME-posters beside it) until edited.
    void setOutput(const QString& output);
    // dir is empty when posters are off.
    BulkPosterOptions options() const;
    void remember() const;

    QComboBox* formatBox() const { return m_format; }
    QComboBox* sizeBox() const { return m_size; }
    QComboBox* fontBox() const { return m_font; }
    QLineEdit* folderField() const { return m_folder; }

private:
    QLineEdit* m_folder;
    QComboBox* m_format;
    QComboBox* m_size;
    QComboBox* m_font;
    QComboBox* m_ink;
    QCheckBox* m_hengpi;
    QCheckBox* m_fu;
    bool m_folderEdited = false;
};

} // namespace couplet
