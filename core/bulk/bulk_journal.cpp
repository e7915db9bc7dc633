#include "bulk_journal.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sqlite3.h>

namespace couplet {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS jobs(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  input_path TEXT NOT NULL, input_size INTEGER NOT NULL, input_mtime INTEGER NOT NULL,
  encoding TEXT NOT NULL, mapping TEXT NOT NULL, output_path TEXT NOT NULL,
  options TEXT NOT NULL, output_header BLOB NOT NULL,
  state TEXT NOT NULL DEFAULT 'running', total_records INTEGER NOT NULL DEFAULT -1,
  created INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS rows(
  job_id INTEGER NOT NULL, record INTEGER NOT NULL, seq INTEGER NOT NULL,
  status TEXT NOT NULL, upper TEXT NOT NULL, lower TEXT NOT NULL, hengpi TEXT NOT NULL,
  error TEXT NOT NULL, model TEXT NOT NULL, seed INTEGER NOT NULL, score REAL NOT NULL,
  latency_ms REAL NOT NULL, output BLOB NOT NULL, output_end INTEGER NOT NULL,
  PRIMARY KEY(job_id, record)) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS rows_by_seq ON rows(job_id, seq);
)sql";

constexpr const char* kJobColumns =
    "id, input_path, input_size, input_mtime, encoding, mapping, output_path, options, "
    "output_header, state, total_records, created";

constexpr const char* kStateNames[] = {"running", "paused", "cancelled", "finished"};

// A prepared statement that finalizes itself.
class Statement {
public:
    Statement(sqlite3* db, const char* sql)
        : m_db(db)
    {
        if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK)
            throw JournalError(std::string("journal: ") + sqlite3_errmsg(db));
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int i, std::int64_t v) { return check(sqlite3_bind_int64(m_stmt, i, v)); }
    Statement& bind(int i, double v) { return check(sqlite3_bind_double(m_stmt, i, v)); }
    Statement& bind(int i, std::string_view v)
    {
        return check(sqlite3_bind_text(m_stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    }
    Statement& bindBlob(int i, std::string_view v)
    {
        return check(sqlite3_bind_blob(m_stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    }
    // True while rows come back.
    bool step()
    {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        throw JournalError(std::string("journal: ") + sqlite3_errmsg(m_db));
    }
    std::int64_t integer(int col) const { return sqlite3_column_int64(m_stmt, col); }
    double real(int col) const { return sqlite3_column_double(m_stmt, col); }
    std::string text(int col) const
    {
        const auto* p = static_cast<const char*>(sqlite3_column_blob(m_stmt, col));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col))) : std::string();
    }
    std::string_view view(int col) const
    {
        const auto* p = static_cast<const char*>(sqlite3_column_blob(m_stmt, col));
        return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col)))
                 : std::string_view();
    }

private:
    Statement& check(int rc)
    {
        if (rc != SQLITE_OK) throw JournalError(std::string("journal: ") + sqlite3_errmsg(m_db));
        return *this;
    }
    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back when left by an exception.
class Transaction {
public:
    explicit Transaction(sqlite3* db)
        : m_db(db)
    {
        Statement(db, "BEGIN IMMEDIATE").step();
    }
    ~Transaction()
    {
        if (!m_committed) sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    void commit()
    {
        Statement(m_db, "COMMIT").step();
        m_committed = true;
    }

private:
    sqlite3* m_db;
    bool m_committed = false;
};

std::string normalisedPath(const std::filesystem::path& p)
{
    return std::filesystem::absolute(p).lexically_normal().string();
}

// A name the journal does not know (a newer version wrote it, or the file was
// edited) is an error: guessing Running would resume a job that is over.
JobState stateFromName(std::int64_t jobId, std::string_view name)
{
    for (std::size_t i = 0; i < std::size(kStateNames); ++i) {
        if (name == kStateNames[i]) return static_cast<JobState>(i);
    }
    throw JournalError("journal: job " + std::to_string(jobId) + " has an unknown state '" + std::string(name)
                       + "' (expected running, paused, cancelled or finished)");
}

JobInfo jobFrom(const Statement& s)
{
    JobInfo job;
    job.id = s.integer(0);
    job.description.input = s.text(1);
    job.fingerprint = {static_cast<std::uint64_t>(s.integer(2)), s.integer(3)};
    job.description.encoding = s.text(4);
    job.description.mapping = s.text(5);
    job.description.output = s.text(6);
    job.description.options = s.text(7);
    job.description.outputHeader = s.text(8);
    job.state = stateFromName(job.id, s.text(9));
    job.totalRecords = s.integer(10);
    job.created = s.integer(11);
    return job;
}

} // namespace

InputFingerprint InputFingerprint::of(const std::filesystem::path& file)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (ec) throw JournalError("cannot read " + file.string() + ": " + ec.message());
    const auto mtime = std::filesystem::last_write_time(file, ec);
    if (ec) throw JournalError("cannot read " + file.string() + ": " + ec.message());
    return {size, static_cast<std::int64_t>(mtime.time_since_epoch().count())};
}

BulkJournal::BulkJournal(const std::filesystem::path& databasePath)
    : m_path(databasePath)
{
    std::error_code ec;
    if (databasePath.has_parent_path()) std::filesystem::create_directories(databasePath.parent_path(), ec);
    if (sqlite3_open(databasePath.string().c_str(), &m_db) != SQLITE_OK) {
        const std::string why = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        throw JournalError("cannot open the job journal " + databasePath.string() + ": " + why);
    }
    sqlite3_busy_timeout(m_db, 5000);
    try {
        execute("PRAGMA journal_mode=WAL");
        execute("PRAGMA synchronous=NORMAL");   // see the file comment in bulk_journal.h
        execute(kSchema);
    } catch (...) {
        sqlite3_close(m_db);
        throw;
    }
}

BulkJournal::~BulkJournal()
{
    sqlite3_close(m_db);
}

std::filesystem::path BulkJournal::defaultPath()
{
    const char* xdg = std::getenv("XDG_DATA_HOME");
    std::filesystem::path base;
    if (xdg && *xdg && std::filesystem::path(xdg).is_absolute()) {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        base = std::filesystem::path(home) / ".local" / "share";
    } else if (const char* local = std::getenv("LOCALAPPDATA"); local && *local) {
        base = local;
    } else {
        base = std::filesystem::current_path();
    }
    return base / "couplet-studio" / "jobs.sqlite";
}

void BulkJournal::execute(const char* sql) const
{
    char* error = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string why = error ? error : sqlite3_errmsg(m_db);
        sqlite3_free(error);
        throw JournalError("journal " + m_path.string() + ": " + why);
    }
}

std::int64_t BulkJournal::insertJob(const JobDescription& d, const InputFingerprint& fingerprint)
{
    const auto now = std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch());
    Statement insert(m_db,
                     "INSERT INTO jobs(input_path, input_size, input_mtime, encoding, mapping, "
                     "output_path, options, output_header, created) VALUES(?,?,?,?,?,?,?,?,?)");
    insert.bind(1, normalisedPath(d.input))
        .bind(2, static_cast<std::int64_t>(fingerprint.size))
        .bind(3, fingerprint.mtime)
        .bind(4, d.encoding)
        .bind(5, d.mapping)
        .bind(6, normalisedPath(d.output))
        .bind(7, d.options)
        .bindBlob(8, d.outputHeader)
        .bind(9, static_cast<std::int64_t>(now.count()));
    insert.step();
    return sqlite3_last_insert_rowid(m_db);
}

JobInfo BulkJournal::createOrResumeJob(const JobDescription& description, bool resume)
{
    const InputFingerprint fingerprint = InputFingerprint::of(description.input);
    if (resume) {
        if (auto found = findJob(description.input, description.output)) {
            if (!(found->fingerprint == fingerprint))
                throw JournalError("cannot resume: " + description.input.string()
                                   + " changed since the job started (size or time differs)");
            found->resumed = true;
            return *found;
        }
    }
    Transaction transaction(m_db);
    const std::string output = normalisedPath(description.output);
    Statement(m_db, "DELETE FROM rows WHERE job_id IN (SELECT id FROM jobs WHERE output_path = ?)")
        .bind(1, output)
        .step();
    Statement(m_db, "DELETE FROM jobs WHERE output_path = ?").bind(1, output).step();
    const std::int64_t id = insertJob(description, fingerprint);
    transaction.commit();
    return job(id);
}

std::optional<JobInfo> BulkJournal::findJob(const std::filesystem::path& input,
                                            const std::filesystem::path& output) const
{
    Statement s(m_db, (std::string("SELECT ") + kJobColumns
                       + " FROM jobs WHERE input_path = ? AND output_path = ? ORDER BY id DESC LIMIT 1")
                          .c_str());
    s.bind(1, normalisedPath(input)).bind(2, normalisedPath(output));
    if (!s.step()) return std::nullopt;
    return jobFrom(s);
}

JobInfo BulkJournal::job(std::int64_t jobId) const
{
    Statement s(m_db, (std::string("SELECT ") + kJobColumns + " FROM jobs WHERE id = ?").c_str());
    s.bind(1, jobId);
    if (!s.step()) throw JournalError("no job " + std::to_string(jobId) + " in the journal");
    return jobFrom(s);
}

std::uint64_t BulkJournal::markDone(std::int64_t jobId, const JournalRow& row)
{
    Transaction transaction(m_db);
    std::int64_t seq = 0;
    std::uint64_t end = 0;
    {
        Statement last(m_db, "SELECT seq, output_end FROM rows WHERE job_id = ? ORDER BY seq DESC LIMIT 1");
        last.bind(1, jobId);
        if (last.step()) {
            seq = last.integer(0);
            end = static_cast<std::uint64_t>(last.integer(1));
        } else {
            end = job(jobId).description.outputHeader.size();
        }
    }
    end += row.outputBytes.size();
    const RowResult& r = row.result;
    Statement insert(m_db, "INSERT INTO rows(job_id, record, seq, status, upper, lower, hengpi, error, "
                           "model, seed, score, latency_ms, output, output_end) "
                           "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    insert.bind(1, jobId)
        .bind(2, static_cast<std::int64_t>(row.record))
        .bind(3, seq + 1)
        .bind(4, rowStatusName(r.status))
        .bind(5, r.couplet.upper)
        .bind(6, r.couplet.lower)
        .bind(7, r.couplet.hengpi)
        .bind(8, r.error)
        .bind(9, r.model)
        .bind(10, static_cast<std::int64_t>(r.couplet.seed))
        .bind(11, r.couplet.score)
        .bind(12, r.latencyMs)
        .bindBlob(13, row.outputBytes)
        .bind(14, static_cast<std::int64_t>(end));
    try {
        insert.step();
    } catch (const JournalError& e) {
        throw JournalError("record " + std::to_string(row.record) + " of job " + std::to_string(jobId)
                           + " cannot be marked done: " + e.what());
    }
    transaction.commit();
    return end;
}

void BulkJournal::setState(std::int64_t jobId, JobState state)
{
    Statement(m_db, "UPDATE jobs SET state = ? WHERE id = ?")
        .bind(1, std::string_view(kStateNames[static_cast<int>(state)]))
        .bind(2, jobId)
        .step();
}

void BulkJournal::setTotalRecords(std::int64_t jobId, std::uint64_t total)
{
    Statement(m_db, "UPDATE jobs SET total_records = ? WHERE id = ?")
        .bind(1, static_cast<std::int64_t>(total))
        .bind(2, jobId)
        .step();
}

std::vector<std::uint64_t> BulkJournal::doneRecords(std::int64_t jobId) const
{
    Statement s(m_db, "SELECT record FROM rows WHERE job_id = ? ORDER BY record");
    s.bind(1, jobId);
    std::vector<std::uint64_t> records;
    while (s.step()) records.push_back(static_cast<std::uint64_t>(s.integer(0)));
    return records;
}

std::vector<std::uint64_t> BulkJournal::pendingRecords(std::int64_t jobId, std::uint64_t totalRecords) const
{
    const std::vector<std::uint64_t> done = doneRecords(jobId);
    std::vector<std::uint64_t> pending;
    std::size_t d = 0;
    for (std::uint64_t r = 1; r <= totalRecords; ++r) {
        while (d < done.size() && done[d] < r) ++d;
        if (d == done.size() || done[d] != r) pending.push_back(r);
    }
    return pending;
}

std::optional<JournalRow> BulkJournal::row(std::int64_t jobId, std::uint64_t record) const
{
    Statement s(m_db, "SELECT status, upper, lower, hengpi, error, model, seed, score, latency_ms, "
                      "output FROM rows WHERE job_id = ? AND record = ?");
    s.bind(1, jobId).bind(2, static_cast<std::int64_t>(record));
    if (!s.step()) return std::nullopt;
    JournalRow row;
    row.record = record;
    row.result.status = rowStatusFromName(s.text(0));
    row.result.couplet.upper = s.text(1);
    row.result.couplet.lower = s.text(2);
    row.result.couplet.hengpi = s.text(3);
    row.result.couplet.seed = static_cast<std::uint64_t>(s.integer(6));
    row.result.couplet.score = s.real(7);
    row.result.error = s.text(4);
    row.result.model = s.text(5);
    row.result.latencyMs = s.real(8);
    row.outputBytes = s.text(9);
    return row;
}

JobCounts BulkJournal::counts(std::int64_t jobId) const
{
    Statement s(m_db, "SELECT status, count(*) FROM rows WHERE job_id = ? GROUP BY status");
    s.bind(1, jobId);
    JobCounts counts;
    while (s.step()) {
        const auto n = static_cast<std::uint64_t>(s.integer(1));
        switch (rowStatusFromName(s.text(0))) {
        case RowStatus::Ok: counts.ok = n; break;
        case RowStatus::Invalid: counts.invalid = n; break;
        case RowStatus::Failed: counts.failed = n; break;
        }
    }
    return counts;
}

std::uint64_t BulkJournal::committedOutputLength(std::int64_t jobId) const
{
    Statement s(m_db, "SELECT output_end FROM rows WHERE job_id = ? ORDER BY seq DESC LIMIT 1");
    s.bind(1, jobId);
    if (s.step()) return static_cast<std::uint64_t>(s.integer(0));
    return job(jobId).description.outputHeader.size();
}

void BulkJournal::forEachOutputPiece(std::int64_t jobId,
                                     const std::function<bool(std::string_view)>& piece) const
{
    if (!piece(job(jobId).description.outputHeader)) return;
    Statement s(m_db, "SELECT output FROM rows WHERE job_id = ? ORDER BY seq");
    s.bind(1, jobId);
    while (s.step()) {
        if (!piece(s.view(0))) return;
    }
}

std::uint64_t BulkJournal::repairOutput(std::int64_t jobId) const
{
    const std::filesystem::path output = job(jobId).description.output;
    // Pass 1: how much of the file agrees with the journal, in whole pieces.
    std::uint64_t kept = 0;
    {
        std::ifstream in(output, std::ios::binary);
        std::string buffer;
        forEachOutputPiece(jobId, [&](std::string_view piece) {
            buffer.resize(piece.size());
            if (!in.read(buffer.data(), static_cast<std::streamsize>(piece.size())) || buffer != piece)
                return false;
            kept += piece.size();
            return true;
        });
    }
    // Pass 2: cut the file there and append what the journal has beyond it.
    std::error_code ec;
    if (!std::filesystem::exists(output)) std::ofstream(output, std::ios::binary);
    std::filesystem::resize_file(output, kept, ec);
    if (ec) throw JournalError("cannot repair " + output.string() + ": " + ec.message());
    std::ofstream out(output, std::ios::binary | std::ios::app);
    std::uint64_t offset = 0;
    forEachOutputPiece(jobId, [&](std::string_view piece) {
        offset += piece.size();
        if (offset > kept) out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
        return true;
    });
    out.flush();
    if (!out) throw JournalError("cannot repair " + output.string() + ": write failed");
    return offset;
}

} // namespace couplet
