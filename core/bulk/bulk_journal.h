#pragma once

// The crash-safe record of bulk jobs, in SQLite.
//
// Exactly-once protocol. The journal, not the output file, is the truth:
//  1. A job row holds the input's path and size+mtime fingerprint, the
//     encoding and column mapping it was read with, the output path, the
//     settings, and the exact bytes the output file starts with (BOM, header).
//  2. When a row finishes, its output bytes are first appended to the output
//     file and flushed to the OS, then markDone() commits, in one transaction,
//     the row's result, its output bytes, its completion sequence number and
//     the output length after it. Rows appear in the output in the order
//     they are committed, which BulkJob keeps to input order.
//  3. On resume, repairOutput() compares the file with the header followed by
//     the journal's rows in sequence order, keeps the longest prefix that
//     matches, truncates the file there and appends the committed rows that
//     follow. The file then holds every committed row once and nothing else.
//     Rows without a journal entry (in flight, or written but not committed
//     when the process died) are pending and get generated again.
// So a kill at any moment leaves: file == journal (nothing to do), file longer
// (a written but uncommitted row: cut off), or a torn last row (cut off).
//
// Durability: WAL with synchronous=NORMAL. A commit in WAL mode has been
// written to the WAL file by write(2) before sqlite3_step() returns, so a
// killed process (kill -9, a crash) loses nothing committed: the data sits in
// the OS page cache. Only an OS crash or power cut can lose the last commits,
// and the database stays consistent (the WAL is fsynced at checkpoints). Under
// the protocol above that is harmless: those rows become pending again and the
// output is repaired from the journal, which also covers an output file that
// lost its tail in the power cut. FULL would fsync every row's commit (a few
// ms each on a laptop disk) and buy nothing for exactly-once output.
//
// One process writes a job at a time; the database may hold many jobs.

#include "row_generator.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace couplet {

class JournalError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct InputFingerprint {
    std::uint64_t size = 0;
    std::int64_t mtime = 0;   // file clock ticks
    bool operator==(const InputFingerprint&) const = default;
    static InputFingerprint of(const std::filesystem::path& file);
};

struct JobDescription {
    std::filesystem::path input;
    std::filesystem::path output;
    std::string encoding;      // encodingName() the input is read with
    std::string mapping;       // ColumnMapping::toString()
    std::string options;       // the job's other settings, as text
    std::string outputHeader;  // bytes the output file starts with
};

enum class JobState { Running, Paused, Cancelled, Finished };

struct JobInfo {
    std::int64_t id = 0;
    JobDescription description;
    InputFingerprint fingerprint;
    JobState state = JobState::Running;
    std::int64_t totalRecords = -1;   // -1 until the input was counted
    std::int64_t created = 0;         // seconds since the epoch
    bool resumed = false;             // true when createOrResumeJob found it
};

// One finished row as committed.
struct JournalRow {
    std::uint64_t record = 0;
    RowResult result;
    std::string outputBytes;   // exactly what was appended to the output
};

struct JobCounts {
    std::uint64_t ok = 0;
    std::uint64_t invalid = 0;
    std::uint64_t failed = 0;
    std::uint64_t done() const { return ok + invalid + failed; }
};

class BulkJournal {
public:
    // Opens or creates the database (and its folder). Throws JournalError.
    explicit BulkJournal(const std::filesystem::path& databasePath);
    ~BulkJournal();
    BulkJournal(const BulkJournal&) = delete;
    BulkJournal& operator=(const BulkJournal&) = delete;

    // $XDG_DATA_HOME/couplet-studio/jobs.sqlite, else ~/.local/share/couplet-studio/jobs.sqlite.
    static std::filesystem::path defaultPath();

    // resume: the newest job for the same input and output, if its input
    // fingerprint still matches (else JournalError), or a new job when there
    // is none. Not resume: a new job; older jobs writing the same output are
    // deleted, since their output is about to be overwritten.
    JobInfo createOrResumeJob(const JobDescription& description, bool resume);
    std::optional<JobInfo> findJob(const std::filesystem::path& input,
                                   const std::filesystem::path& output) const;
    JobInfo job(std::int64_t jobId) const;

    // Commits a finished row whose bytes were just appended to the output;
    // returns the output length after it. A record already done is a JournalError.
    std::uint64_t markDone(std::int64_t jobId, const JournalRow& row);
    void setState(std::int64_t jobId, JobState state);
    void setTotalRecords(std::int64_t jobId, std::uint64_t total);

    // Sorted ascending.
    std::vector<std::uint64_t> doneRecords(std::int64_t jobId) const;
    std::vector<std::uint64_t> pendingRecords(std::int64_t jobId, std::uint64_t totalRecords) const;
    std::optional<JournalRow> row(std::int64_t jobId, std::uint64_t record) const;
    JobCounts counts(std::int64_t jobId) const;
    // Output header plus every committed row.
    std::uint64_t committedOutputLength(std::int64_t jobId) const;
    // Step 3 of the protocol; returns the output file's length afterwards.
    std::uint64_t repairOutput(std::int64_t jobId) const;

private:
    void execute(const char* sql) const;
    std::int64_t insertJob(const JobDescription& description, const InputFingerprint& fingerprint);
    void forEachOutputPiece(std::int64_t jobId,
                            const std::function<bool(std::string_view)>& piece) const;

    sqlite3* m_db = nullptr;
    std::filesystem::path m_path;
};

} // namespace couplet
