#pragma once

#include "bulk_journal.h"
#include "bulk_progress.h"
#include "column_mapping.h"
#include "committed_row_sink.h"
#include "csv_reader.h"
#include "result_format.h"
#include "row_generator.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

namespace couplet {

// A job that cannot start: no prompt column, settings that do not match the
// interrupted job being resumed.
class BulkJobError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct BulkJobOptions {
    std::filesystem::path input;
    std::filesystem::path output;
    std::optional<TextEncoding> encoding;   // empty: detect
    std::string mappingOverrides;           // ColumnMapping::applyOverrides() form, e.g. "upper=2"
    OutputOptions outputOptions;            // format, header language, BOM
    // Settings for every row (length when the row has none, sampling). A
    // non-zero sampling seed gives row r the seed seed + r, the same on resume.
    GenerationSpec defaults;
    bool resume = false;                    // continue the interrupted job for input+output
    int maxInFlight = 64;                   // rows submitted and not finished; about 2x the batch
    // No couplet twice in one job: a row whose best couplet shares a line with
    // one an earlier row of the job (this run or an interrupted one) already
    // got takes its best candidate whose lines were not yet written; only when
    // every candidate shares one does it keep its best (counted in
    // BulkProgress::repeated). For platforms that write
    // one couplet per user from few distinct requests. The rows' couplets then
    // depend on the order rows finish in, not on their prompt and seed alone.
    bool noRepeats = false;
};

// Runs a CSV of prompts through a RowGenerator into an output file, with
// every input row in the output exactly once however the process ends (see
// the protocol in bulk_journal.h), in input order: a finished row waits until
// every row read before it is written. Reads the input streaming and keeps at
// most maxInFlight rows generating and kReorderFactor times as many in
// memory, so input size does not matter.
//
// Driven by one thread: start(), then step() until it returns false (the
// engine re-posts step() between scheduler steps; the CLI calls run()).
class BulkJob {
public:
    // Rows read and not yet written, as a multiple of maxInFlight: room for
    // rows that finished while an earlier one still generates.
    static constexpr int kReorderFactor = 4;

    BulkJob(BulkJobOptions options, BulkJournal& journal, RowGenerator& generator);
    // Drops rows in flight; they are still pending in the journal.
    ~BulkJob();
    BulkJob(const BulkJob&) = delete;
    BulkJob& operator=(const BulkJob&) = delete;

    // Counts the input (a malformed file fails here with CsvError, before any
    // generation), creates or resumes the journal entry and repairs the output.
    void start();
    // Submits rows up to the in-flight limit and polls the generator once.
    // False when the job is over (finished or cancelled). On an exception the
    // job is Failed; nothing committed is lost.
    bool step();
    void run();
    // Tells `sink` about every committed row (see committed_row_sink.h); set
    // before the first step(). Not owned; nullptr for none.
    void setCommittedRowSink(CommittedRowSink* sink) { m_sink = sink; }

    void pause();    // no new rows; rows in flight still finish and are written
    void resume();
    void cancel();   // drops rows in flight; resume later with options.resume

    BulkProgress progress() const;
    std::int64_t jobId() const { return m_job.id; }
    bool resumed() const { return m_job.resumed; }
    const ColumnMapping& mapping() const { return m_mapping; }
    const std::filesystem::path& input() const { return m_options.input; }
    // Every row written; the job waits for its sink (settled()) to finish.
    bool settling() const
    {
        return m_inputDone && m_inFlight.empty() && (m_state == BulkState::Running || m_state == BulkState::Paused);
    }
    const std::vector<std::string>& inputHeader() const { return m_header; }
    TextEncoding encoding() const { return m_encoding; }

private:
    std::uint64_t countRecords();
    void openJob();
    std::string describeOptions() const;
    bool readAndSubmit();
    bool isDone(std::uint64_t record);
    bool canRead() const;
    void submit(PromptRow row);
    void finishRow(std::uint64_t record, RowResult result);
    void writeReadyRows();
    void writeRow(const PromptRow& row, const RowResult& result);
    void finishIfDone();
    void announceEarlierRow(CsvRecord& record);

    BulkJobOptions m_options;
    BulkJournal& m_journal;
    RowGenerator& m_generator;
    CommittedRowSink* m_sink = nullptr;
    BulkState m_state = BulkState::Idle;

    TextEncoding m_encoding = TextEncoding::Utf8;
    std::vector<std::string> m_header;
    ColumnMapping m_mapping;
    std::unique_ptr<ResultFormat> m_format;
    std::unique_ptr<CsvReader> m_reader;
    bool m_inputDone = false;
    JobInfo m_job;
    std::ofstream m_output;

    std::vector<std::uint64_t> m_done;      // records done before this run, sorted
    std::size_t m_doneIndex = 0;
    // Rows read and not yet written, by record (so in input order); a row
    // with a result waits for the rows before it.
    struct Pending {
        PromptRow row;
        std::optional<RowResult> result;
    };
    std::map<std::uint64_t, Pending> m_inFlight;
    int m_generating = 0;   // rows in m_inFlight without a result
    std::uint64_t m_total = 0;
    JobCounts m_counts;
    std::uint64_t m_finishedThisRun = 0;
    // noRepeats: every line (上联 and 下联) the job has written, and the rows that had to repeat one.
    std::unordered_set<std::string> m_written;
    std::uint64_t m_repeated = 0;
    void chooseUnwritten(RowResult& result);
    std::chrono::steady_clock::time_point m_started;
};

} // namespace couplet
