#pragma once

#include "generation_spec.h"
#include "couplet_text.h"

#include <QWidget>

#include <array>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace couplet {

// The candidates of the current request, filled in as characters stream,
// and an editor for the selected one. Locked lines are kept when the others
// are regenerated: a locked 上联 is sent to the model (PromptMode::Upper), a
// locked 横批 is sent as the fixed 横批, and a locked 下联 is kept on the
// GUI side while the new 横批 is taken from the result.
class EditorView : public QWidget {
    Q_OBJECT
public:
    enum Line { Upper, Lower, Hengpi, LineCount };

    explicit EditorView(QWidget* parent = nullptr);

    void beginRequest(quint64 requestId, const GenerationSpec& spec);
    void updateCandidate(quint64 requestId, int candidate, const CoupletText& text);
    // `parts`, when given, explain the score in the score cell's tooltip.
    void finishCandidate(quint64 requestId, int candidate, const CoupletText& text,
                         double score, const QString& error, const ScoreParts* parts = nullptr);
    // The whole request failed (no candidate written): one row that says why,
    // across the line columns, instead of a "failed" row per candidate. The
    // message is not a candidate: it never goes into the line edits.
    void showFailure(quint64 requestId, const QString& error);
    // "1.23 = model -1.85 + 对仗 0.52 + …": the terms of a reranked score.
    static QString explainScore(double score, const ScoreParts& parts);
    // Shows one couplet (e.g. reopened from the history) as the only candidate.
    void showCouplet(const CoupletText& text, const GenerationSpec& spec = {});

    quint64 currentRequestId() const { return m_requestId; }
    int candidateCount() const;
    CoupletText candidate(int index) const;
    CoupletText currentCouplet() const;
    bool isLocked(Line line) const;
    void setLocked(Line line, bool locked);
    // The spec that regenerates every unlocked line of the current couplet.
    GenerationSpec regenerationSpec() const;

public Q_SLOTS:
    void regenerate();
    void newLower();
    void newHengpi();

Q_SIGNALS:
    void regenerateRequested(const couplet::GenerationSpec& spec);
    // The selected candidate or the edited text changed: show it.
    void currentCoupletChanged(const couplet::CoupletText& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildUi();
    void retranslateUi();
    // `rows` empty rows, without a failure message's span.
    void resetRows(int rows);
    void setRow(int row, const CoupletText& text);
    CoupletText withLocks(const CoupletText& text) const;
    void selectionChanged();
    void lineEdited();

    quint64 m_requestId = 0;
    GenerationSpec m_spec;
    QTableWidget* m_table;
    std::array<QLineEdit*, LineCount> m_edits{};
    std::array<QCheckBox*, LineCount> m_locks{};
    std::array<QLabel*, LineCount> m_labels{};
    QPushButton* m_newLower;
    QPushButton* m_newHengpi;
    QPushButton* m_regenerate;
    bool m_updatingEdits = false;
};

} // namespace couplet
