#include "editor_view.h"

#include <cmath>

#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTableWidgetItem>
#include <QVBoxLayout>

namespace couplet {
namespace {

constexpr int kStatusColumn = EditorView::LineCount;
// Marks the item of a failure message (showFailure), which is not a line of a candidate.
constexpr int kMessageRole = Qt::UserRole + 1;

QString lineOf(const CoupletText& text, int line)
{
    switch (line) {
    case EditorView::Upper: return text.upper;
    case EditorView::Lower: return text.lower;
    default: return text.hengpi;
    }
}

void setLineOf(CoupletText& text, int line, const QString& value)
{
    switch (line) {
    case EditorView::Upper: text.upper = value; break;
    case EditorView::Lower: text.lower = value; break;
    default: text.hengpi = value; break;
    }
}

} // namespace

EditorView::EditorView(QWidget* parent)
    : QWidget(parent), m_table(new QTableWidget(0, LineCount + 1, this)),
      m_newLower(new QPushButton(this)), m_newHengpi(new QPushButton(this)),
      m_regenerate(new QPushButton(this))
{
    buildUi();
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &EditorView::selectionChanged);
    connect(m_newLower, &QPushButton::clicked, this, &EditorView::newLower);
    connect(m_newHengpi, &QPushButton::clicked, this, &EditorView::newHengpi);
    connect(m_regenerate, &QPushButton::clicked, this, &EditorView::regenerate);
    retranslateUi();
}

void EditorView::buildUi()
{
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(kStatusColumn, QHeaderView::ResizeToContents);

    auto* grid = new QGridLayout;
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    for (int line = 0; line < LineCount; ++line) {
        m_labels[size_t(line)] = new QLabel(this);
        m_edits[size_t(line)] = new QLineEdit(this);
        m_edits[size_t(line)]->setFont(big);
        m_locks[size_t(line)] = new QCheckBox(this);
        grid->addWidget(m_labels[size_t(line)], line, 0);
        grid->addWidget(m_edits[size_t(line)], line, 1);
        grid->addWidget(m_locks[size_t(line)], line, 2);
        connect(m_edits[size_t(line)], &QLineEdit::textEdited, this, &EditorView::lineEdited);
    }
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_newLower);
    buttons->addWidget(m_newHengpi);
    buttons->addWidget(m_regenerate);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table, 1);
    layout->addLayout(grid);
    layout->addLayout(buttons);
}

void EditorView::retranslateUi()
{
    m_table->setHorizontalHeaderLabels({tr("上联"), tr("下联"), tr("横批"), tr("Score")});
    m_labels[Upper]->setText(tr("上联 (right)"));
    m_labels[Lower]->setText(tr("下联 (left)"));
    m_labels[Hengpi]->setText(tr("横批 (top)"));
    for (QCheckBox* lock : m_locks)
        lock->setText(tr("Lock"));
    m_newLower->setText(tr("New 下联 (keep 上联)"));
    m_newHengpi->setText(tr("New 横批 only"));
    m_regenerate->setText(tr("Regenerate unlocked"));
    m_newLower->setToolTip(tr("Keeps the 上联 and 横批 and asks the model for new 下联"));
    m_newHengpi->setToolTip(tr("Keeps both lines and asks the model for a new 横批"));
}

void EditorView::beginRequest(quint64 requestId, const GenerationSpec& spec)
{
    m_requestId = requestId;
    m_spec = spec;
    resetRows(std::max(1, spec.candidates));
    for (int row = 0; row < m_table->rowCount(); ++row) {
        setRow(row, withLocks({}));
        m_table->setItem(row, kStatusColumn, new QTableWidgetItem(tr("…")));
    }
    m_table->selectRow(0);
}

void EditorView::resetRows(int rows)
{
    m_table->clearSpans();
    m_table->clearContents();
    m_table->setRowCount(rows);
}

int EditorView::candidateCount() const { return m_table->rowCount(); }

CoupletText EditorView::withLocks(const CoupletText& text) const
{
    CoupletText result = text;
    for (int line = 0; line < LineCount; ++line) {
        if (m_locks[size_t(line)]->isChecked())
            setLineOf(result, line, m_edits[size_t(line)]->text());
    }
    return result;
}

void EditorView::setRow(int row, const CoupletText& text)
{
    for (int line = 0; line < LineCount; ++line) {
        QTableWidgetItem* item = m_table->item(row, line);
        if (!item) {
            item = new QTableWidgetItem;
            m_table->setItem(row, line, item);
        }
        item->setText(lineOf(text, line));
    }
    if (row == m_table->currentRow())
        selectionChanged();
}

CoupletText EditorView::candidate(int index) const
{
    CoupletText text;
    for (int line = 0; line < LineCount; ++line) {
        const QTableWidgetItem* item = m_table->item(index, line);
        setLineOf(text, line, item && !item->data(kMessageRole).toBool() ? item->text() : QString());
    }
    return text;
}

void EditorView::updateCandidate(quint64 requestId, int candidate, const CoupletText& text)
{
    if (requestId != m_requestId || candidate < 0 || candidate >= m_table->rowCount())
        return;
    setRow(candidate, withLocks(text));
}

QString EditorView::explainScore(double score, const ScoreParts& parts)
{
    const auto term = [](double v) { return (v < 0 ? QStringLiteral("− ") : QStringLiteral("+ ")) + QString::number(std::abs(v), 'f', 2); };
    return tr("Score %1 = model %2 (mean log-probability)\n"
              "%3 对仗 (aligned pairs)\n%4 平仄 (tone pattern)\n%5 keywords\n"
              "%6 repeated characters\n%7 clichés (shared with the other candidates)\n"
              "%8 words (loose characters, torn keywords)\n%9 对仗 word by word\n%10 theme\n%11 melancholy")
        .arg(QString::number(score, 'f', 2), QString::number(parts.logProb, 'f', 2), term(parts.duizhang), term(parts.tone),
             term(parts.keywords), term(parts.repetition), term(parts.cliche), term(parts.looseWords + parts.tornKeywords),
             term(parts.wordDuizhang))
        .arg(term(parts.theme), term(parts.melancholy));
}

void EditorView::finishCandidate(quint64 requestId, int candidate, const CoupletText& text,
                                 double score, const QString& error, const ScoreParts* parts)
{
    if (requestId != m_requestId || candidate < 0 || candidate >= m_table->rowCount())
        return;
    if (error.isEmpty())
        setRow(candidate, withLocks(text));
    auto* status = new QTableWidgetItem(error.isEmpty() ? QString::number(score, 'f', 2) : tr("failed"));
    status->setToolTip(!error.isEmpty() ? error : parts ? explainScore(score, *parts) : tr("Mean log-probability per character"));
    m_table->setItem(candidate, kStatusColumn, status);
}

void EditorView::showFailure(quint64 requestId, const QString& error)
{
    if (requestId != m_requestId)
        return;
    resetRows(1);
    auto* message = new QTableWidgetItem(tr("Nothing written: %1").arg(error));
    message->setData(kMessageRole, true);
    message->setToolTip(error);
    message->setForeground(palette().brush(QPalette::Disabled, QPalette::Text));
    m_table->setItem(0, Upper, message);
    m_table->setSpan(0, Upper, 1, LineCount);
    auto* status = new QTableWidgetItem(tr("failed"));
    status->setToolTip(error);
    m_table->setItem(0, kStatusColumn, status);
    m_table->selectRow(0);
}

void EditorView::showCouplet(const CoupletText& text, const GenerationSpec& spec)
{
    m_requestId = 0;
    m_spec = spec;
    m_spec.candidates = 1;
    for (QCheckBox* lock : m_locks)
        lock->setChecked(false);
    resetRows(1);
    setRow(0, text);
    m_table->setItem(0, kStatusColumn, new QTableWidgetItem);
    m_table->selectRow(0);
    selectionChanged();
}

CoupletText EditorView::currentCouplet() const
{
    CoupletText text;
    for (int line = 0; line < LineCount; ++line)
        setLineOf(text, line, m_edits[size_t(line)]->text());
    return text;
}

void EditorView::selectionChanged()
{
    const int row = m_table->currentRow();
    if (row < 0)
        return;
    const CoupletText text = candidate(row);
    m_updatingEdits = true;
    for (int line = 0; line < LineCount; ++line) {
        QLineEdit* edit = m_edits[size_t(line)];
        if (!m_locks[size_t(line)]->isChecked() && edit->text() != lineOf(text, line))
            edit->setText(lineOf(text, line));
    }
    m_updatingEdits = false;
    Q_EMIT currentCoupletChanged(currentCouplet());
}

void EditorView::lineEdited()
{
    if (m_updatingEdits)
        return;
    // An edited line is the user's: keep it when the others are regenerated.
    for (int line = 0; line < LineCount; ++line) {
        if (sender() == m_edits[size_t(line)])
            m_locks[size_t(line)]->setChecked(true);
    }
    const int row = m_table->currentRow();
    if (row >= 0) {
        for (int line = 0; line < LineCount; ++line) {
            if (QTableWidgetItem* item = m_table->item(row, line))
                item->setText(m_edits[size_t(line)]->text());
        }
    }
    Q_EMIT currentCoupletChanged(currentCouplet());
}

bool EditorView::isLocked(Line line) const { return m_locks[size_t(line)]->isChecked(); }
void EditorView::setLocked(Line line, bool locked) { m_locks[size_t(line)]->setChecked(locked); }

GenerationSpec EditorView::regenerationSpec() const
{
    GenerationSpec spec = m_spec;
    spec.candidates = std::max(1, m_spec.candidates);
    spec.sampling.seed = 0;   // a fresh draw, not the same candidates again
    const CoupletText text = currentCouplet();
    if (isLocked(Upper) && !text.upper.isEmpty()) {
        spec.mode = PromptMode::Upper;
        spec.upper = text.upper.toStdString();
        spec.length = int(text.upper.toUcs4().size());
    }
    spec.hengpi = isLocked(Hengpi) ? text.hengpi.toStdString() : std::string();
    return spec;
}

void EditorView::regenerate() { Q_EMIT regenerateRequested(regenerationSpec()); }

void EditorView::newLower()
{
    setLocked(Upper, true);
    setLocked(Lower, false);
    setLocked(Hengpi, true);
    regenerate();
}

void EditorView::newHengpi()
{
    setLocked(Upper, true);
    setLocked(Lower, true);
    setLocked(Hengpi, false);
    regenerate();
}

void EditorView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace couplet
