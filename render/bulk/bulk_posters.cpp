// The posters of a bulk job (`couplet batch --posters`, the app's import
// dialog): a BulkPosterSink on render threads. Exactly once per row: a poster
// is drawn only after its row is committed, into DIR/.partial/, and renamed
// into DIR when whole; the job is marked finished only when the queue is
// empty; on resume, every committed row is offered again and gets the files
// it lacks; a row queued or being drawn is not queued twice (a job reopened
// after a model reload offers its rows again).

#include "bulk_posters.h"

#include "bulk_job.h"

#include "couplet_renderer.h"
#include "csv_reader.h"
#include "headless_gui.h"
#include "print_poster.h"
#include "share_card.h"

#include <QFontDatabase>
#include <QThread>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace couplet {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxStemBytes = 120;
// Posters queued at most; beyond it the job waits (memory stays bounded when
// drawing is slower than generating).
constexpr std::size_t kMaxQueued = 4096;
constexpr int kErrorsShown = 5;
const char* const kPartial = ".partial";

// The id as a file name: no path separators, reserved or control characters,
// no leading dot (no hidden files, no ".."), at most kMaxStemBytes of UTF-8.
std::string sanitizeStem(const std::string& id)
{
    std::string stem;
    for (unsigned char c : id)
        stem += (c < 0x20 || c == 0x7f || std::string_view("/\\:*?\"<>|").find(char(c)) != std::string_view::npos)
            ? '_'
            : char(c);
    const auto first = stem.find_first_not_of(". ");
    stem = first == std::string::npos ? std::string() : stem.substr(first);
    if (stem.size() > kMaxStemBytes) {
        std::size_t cut = kMaxStemBytes;
        while (cut > 0 && (static_cast<unsigned char>(stem[cut]) & 0xc0) == 0x80) --cut;
        stem.resize(cut);
    }
    while (!stem.empty() && (stem.back() == ' ' || stem.back() == '.')) stem.pop_back();
    return stem;
}

CoupletText textOf(const RowResult& result, bool hengpi)
{
    return {QString::fromStdString(result.couplet.upper), QString::fromStdString(result.couplet.lower),
            hengpi ? QString::fromStdString(result.couplet.hengpi) : QString()};
}

struct Task {
    std::uint64_t record = 0;
    std::string stem;
    CoupletText text;
    QString family;
    std::vector<std::string> extensions;   // the files to draw: .png, .pdf
};

class RenderingPosters final : public BulkPosterSink {
public:
    explicit RenderingPosters(BulkPosterOptions options);
    ~RenderingPosters() override;

    void attach(BulkJob& job) override;
    void stop() override;
    BulkPosterProgress progress() const override;
    std::string summary() const override;

    void beforeWrite(const PromptRow& row, RowResult& result) override;
    void committed(const PromptRow& row, const RowResult& result, bool earlierRun) override;
    bool settled() override;

private:
    std::string baseStem(const PromptRow& row) const;
    std::string stemFor(const PromptRow& row) const;
    // The font for the text, or nullopt with `missing` set to what no font writes.
    std::optional<QString> familyFor(const CoupletText& text, QString& missing) const;
    std::string noGlyphMessage(const QString& missing) const;
    std::vector<std::string> extensions() const;
    void renderLoop();
    std::string draw(const Task& task);

    void noteProblem(std::string problem);   // m_mutex held

    BulkPosterOptions m_options;
    HeadlessGui m_gui;
    CoupletStyle m_style;
    PrintSize m_printSize;
    std::filesystem::path m_partial;
    int m_idColumn = kNoColumn;
    std::unordered_map<std::string, int> m_stemCounts;   // base stem -> rows with it

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;   // a task was queued, or stop
    std::condition_variable m_room;   // a task was taken or finished
    std::deque<Task> m_queue;
    std::unordered_set<std::uint64_t> m_waiting;   // records queued or being drawn
    int m_busy = 0;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
    std::size_t m_threadCount = 0;
    std::uint64_t m_written = 0, m_failed = 0, m_noFont = 0, m_kept = 0;
    double m_drawSeconds = 0;   // summed over the render threads
    std::vector<std::string> m_errors;    // the first kErrorsShown failures
    std::vector<std::string> m_problems;  // the first kErrorsShown failures and rows without a font
    std::optional<Clock::time_point> m_firstQueued, m_lastWritten;
};

RenderingPosters::RenderingPosters(BulkPosterOptions options)
    : m_options(std::move(options))
{
    m_style.ink = m_options.ink == "black" ? InkColor::Black : InkColor::Gold;
    m_style.showHengpi = m_options.hengpi;
    m_style.showFuDiamond = m_options.fu;
    if (m_options.print) {
        const auto size = parsePrintSize(QString::fromStdString(m_options.printSize));
        if (!size)
            throw PosterOptionsError("size", "expects 130x23, 160x28, 180x33 or 200x36 (cm), got '"
                                                 + m_options.printSize + "'");
        m_printSize = *size;
    }
    if (!m_options.font.empty() && !QFontDatabase::families().contains(QString::fromStdString(m_options.font))) {
        std::string known;
        for (const QString& f : QFontDatabase::families(QFontDatabase::SimplifiedChinese))
            known += (known.empty() ? "" : ", ") + f.toStdString();
        throw PosterOptionsError("font", "no font family '" + m_options.font + "' is installed (Chinese fonts here: "
                                             + (known.empty() ? std::string("none; install fonts-arphic-ukai") : known)
                                             + ")");
    }
    std::error_code ec;
    std::filesystem::create_directories(m_options.dir, ec);
    if (ec || !std::filesystem::is_directory(m_options.dir))
        throw std::runtime_error("cannot make the posters folder " + m_options.dir.string() + ": "
                                 + (ec ? ec.message() : std::string("a file of that name is in the way")));
    m_partial = m_options.dir / kPartial;
}

RenderingPosters::~RenderingPosters()
{
    stop();
}

void RenderingPosters::attach(BulkJob& job)
{
    job.setCommittedRowSink(this);
    if (!m_threads.empty()) {
        // The same job reopened (same input and mapping): it offers every
        // committed row again, and those with their files count as kept.
        std::lock_guard lock(m_mutex);
        m_written = m_kept = m_noFont = 0;
        return;
    }
    // What a killed run was drawing: never renamed, so never counted as done.
    std::error_code ec;
    std::filesystem::remove_all(m_partial, ec);
    std::filesystem::create_directories(m_partial, ec);
    if (ec) throw std::runtime_error("cannot make " + m_partial.string() + ": " + ec.message());
    m_idColumn = job.mapping().column(ColumnRole::Id);
    if (m_idColumn != kNoColumn) {
        CsvReaderOptions readerOptions;
        readerOptions.encoding = job.encoding();
        CsvReader reader(job.input(), readerOptions);
        CsvRecord record;
        while (reader.next(record)) {
            PromptRow row;
            row.recordNumber = record.number;
            row.cells = std::move(record.fields);
            ++m_stemCounts[baseStem(row)];
        }
    }
    int threads = m_options.threads;
    if (threads == 0) threads = std::max(1, QThread::idealThreadCount() / 2);
    m_threadCount = static_cast<std::size_t>(threads);
    {
        std::lock_guard lock(m_mutex);
        m_stopping = false;
    }
    for (int i = 0; i < threads; ++i) m_threads.emplace_back([this] { renderLoop(); });
}

std::string RenderingPosters::baseStem(const PromptRow& row) const
{
    const auto column = static_cast<std::size_t>(m_idColumn);
    std::string stem = m_idColumn != kNoColumn && column < row.cells.size() ? sanitizeStem(row.cells[column]) : "";
    return stem.empty() ? "row-" + std::to_string(row.recordNumber) : stem;
}

// The same name for a row in every run: the input is unchanged (the journal
// checks), so are the counts.
std::string RenderingPosters::stemFor(const PromptRow& row) const
{
    const std::string base = baseStem(row);
    const auto it = m_stemCounts.find(base);
    return it != m_stemCounts.end() && it->second > 1 ? base + "-" + std::to_string(row.recordNumber) : base;
}

std::optional<QString> RenderingPosters::familyFor(const CoupletText& text, QString& missing) const
{
    const QString preferred =
        m_options.font.empty() ? CoupletRenderer::brushFontFamily() : QString::fromStdString(m_options.font);
    // An explicit font is kept or refused, never replaced behind the user's back.
    const QString family = m_options.font.empty() ? CoupletRenderer::familyWithGlyphs(text, preferred) : preferred;
    missing = CoupletRenderer::missingGlyphs(text, family);
    if (!m_options.fu && !text.upper.contains(QStringLiteral("福")) && !text.lower.contains(QStringLiteral("福"))
        && !text.hengpi.contains(QStringLiteral("福")))
        missing.remove(QStringLiteral("福"));
    if (missing.isEmpty()) return family;
    return std::nullopt;
}

void RenderingPosters::beforeWrite(const PromptRow&, RowResult& result)
{
    if (result.status != RowStatus::Ok) return;
    QString missing;
    if (familyFor(textOf(result, m_options.hengpi), missing)) return;
    if (!result.error.empty()) result.error += "; ";
    result.error += noGlyphMessage(missing);
}

std::string RenderingPosters::noGlyphMessage(const QString& missing) const
{
    return m_options.font.empty()
        ? "no poster: no installed Chinese font has a glyph for " + missing.toStdString()
        : "no poster: the font '" + m_options.font + "' has no glyph for " + missing.toStdString();
}

void RenderingPosters::committed(const PromptRow& row, const RowResult& result, bool earlierRun)
{
    if (result.status != RowStatus::Ok) return;
    Task task{row.recordNumber, stemFor(row), textOf(result, m_options.hengpi), {}, extensions()};
    QString missing;
    const auto family = familyFor(task.text, missing);
    if (!family) {
        std::lock_guard lock(m_mutex);
        ++m_noFont;
        noteProblem("row " + std::to_string(row.recordNumber) + ": " + noGlyphMessage(missing));
        return;
    }
    task.family = *family;
    if (earlierRun) {
        std::erase_if(task.extensions, [&](const std::string& ext) {
            return std::filesystem::exists(m_options.dir / (task.stem + ext));
        });
        if (task.extensions.empty()) {
            std::lock_guard lock(m_mutex);
            ++m_kept;
            return;
        }
    }
    std::unique_lock lock(m_mutex);
    if (m_waiting.contains(task.record)) return;   // offered again by the job reopened
    m_room.wait(lock, [this] { return m_queue.size() < kMaxQueued || m_stopping; });
    if (m_stopping) return;
    if (!m_firstQueued) m_firstQueued = Clock::now();
    m_waiting.insert(task.record);
    m_queue.push_back(std::move(task));
    m_wake.notify_one();
}

void RenderingPosters::noteProblem(std::string problem)
{
    if (m_problems.size() < kErrorsShown) m_problems.push_back(std::move(problem));
}

bool RenderingPosters::settled()
{
    std::unique_lock lock(m_mutex);
    const bool idle = m_room.wait_for(lock, std::chrono::milliseconds(m_options.settleWaitMs), [this] {
        return m_stopping || (m_queue.empty() && m_busy == 0);
    });
    // Stopped (the app closing) means posters were dropped: the job stays
    // unfinished, so that resuming it draws them.
    return idle && !m_stopping;
}

void RenderingPosters::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        for (const Task& task : m_queue) m_waiting.erase(task.record);
        m_queue.clear();
    }
    m_wake.notify_all();
    m_room.notify_all();
    for (std::thread& t : m_threads) t.join();
    m_threads.clear();
    std::error_code ec;
    std::filesystem::remove(m_partial, ec);   // empty now: every poster begun was renamed
}

std::vector<std::string> RenderingPosters::extensions() const
{
    std::vector<std::string> ext;
    if (m_options.card) ext.push_back(".png");
    if (m_options.print) ext.push_back(".pdf");
    return ext;
}

void RenderingPosters::renderLoop()
{
    for (;;) {
        Task task;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return !m_queue.empty() || m_stopping; });
            if (m_queue.empty()) return;
            task = std::move(m_queue.front());
            m_queue.pop_front();
            ++m_busy;
        }
        m_room.notify_all();
        const auto started = Clock::now();
        const std::string error = draw(task);
        {
            std::lock_guard lock(m_mutex);
            --m_busy;
            m_waiting.erase(task.record);
            m_drawSeconds += std::chrono::duration<double>(Clock::now() - started).count();
            if (error.empty()) {
                ++m_written;
                m_lastWritten = Clock::now();
            } else {
                ++m_failed;
                if (m_errors.size() < kErrorsShown) m_errors.push_back(error);
                noteProblem(error);
            }
        }
        m_room.notify_all();
    }
}

// Each file is drawn under DIR/.partial/ and renamed into DIR: rename(2)
// replaces atomically, so DIR never holds half an image.
std::string RenderingPosters::draw(const Task& task)
{
    CoupletStyle style = m_style;
    style.fontFamily = task.family;
    for (const std::string& ext : task.extensions) {
        const std::filesystem::path partial = m_partial / (task.stem + ext);
        const std::filesystem::path final = m_options.dir / (task.stem + ext);
        const QString path = QString::fromStdString(partial.string());
        const QString error = ext == ".png" ? writeShareCard(path, task.text, style)
                                            : writePrintPoster(path, task.text, m_printSize, style);
        std::error_code ec;
        if (!error.isEmpty() || (std::filesystem::rename(partial, final, ec), ec)) {
            std::filesystem::remove(partial, ec);
            return "row " + std::to_string(task.record) + ": "
                + (error.isEmpty() ? "cannot rename into " + final.string() : error.toStdString());
        }
    }
    return {};
}

std::string RenderingPosters::summary() const
{
    std::lock_guard lock(m_mutex);
    const double seconds = m_firstQueued && m_lastWritten
        ? std::chrono::duration<double>(*m_lastWritten - *m_firstQueued).count()
        : 0.0;
    std::string formats = m_options.card && m_options.print ? "card PNG + print PDF"
        : m_options.card                                    ? "card PNG"
                                                            : "print PDF " + m_options.printSize;
    char line[512];
    std::snprintf(line, sizeof line,
                  "posters (%s): %llu rows drawn, %llu already there, %llu without a font, %llu failed; "
                  "%.2f rows/s (%.0f ms a row per render thread, %zu threads) -> %s",
                  formats.c_str(), static_cast<unsigned long long>(m_written),
                  static_cast<unsigned long long>(m_kept), static_cast<unsigned long long>(m_noFont),
                  static_cast<unsigned long long>(m_failed), seconds > 0 ? double(m_written) / seconds : 0.0,
                  m_written > 0 ? 1000 * m_drawSeconds / double(m_written) : 0.0, m_threadCount,
                  m_options.dir.string().c_str());
    std::string text = line;
    for (const std::string& e : m_errors) text += "\n  poster failed: " + e;
    return text;
}

BulkPosterProgress RenderingPosters::progress() const
{
    std::lock_guard lock(m_mutex);
    BulkPosterProgress p;
    p.written = m_written;
    p.kept = m_kept;
    p.noFont = m_noFont;
    p.failed = m_failed;
    p.waiting = m_queue.size() + static_cast<std::uint64_t>(m_busy);
    const double seconds = m_firstQueued && m_lastWritten
        ? std::chrono::duration<double>(*m_lastWritten - *m_firstQueued).count()
        : 0.0;
    p.postersPerSecond = seconds > 0 ? double(m_written) / seconds : 0.0;
    p.problems = m_problems;
    return p;
}

} // namespace

std::unique_ptr<BulkPosterSink> makeBulkPosters(const BulkPosterOptions& options)
{
    return std::make_unique<RenderingPosters>(options);
}

QStringList posterFontFamilies()
{
    // Characters of every couplet (春, 福, the 横批's 迎 and 新): a font that lacks them is no couplet font.
    const CoupletText sample{QStringLiteral("春回大地千山秀"), QStringLiteral("福满人间万户新"), QStringLiteral("迎春接福")};
    QStringList families;
    for (const QString& family : QFontDatabase::families(QFontDatabase::SimplifiedChinese))
        if (!QFontDatabase::isPrivateFamily(family) && CoupletRenderer::missingGlyphs(sample, family).isEmpty())
            families << family;
    return families;
}

} // namespace couplet
