#include "bulk_job.h"

#include "prompt_row.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace couplet {
namespace {

// Records read per step at most, so that a file of invalid rows (which need
// no generator) still returns to the event loop now and then.
constexpr int kReadBudget = 256;

} // namespace

BulkJob::BulkJob(BulkJobOptions options, BulkJournal& journal, RowGenerator& generator)
    : m_options(std::move(options))
    , m_journal(journal)
    , m_generator(generator)
{
    m_options.maxInFlight = std::max(1, m_options.maxInFlight);
}

BulkJob::~BulkJob()
{
    if (m_generating > 0) m_generator.cancelAll();
}

void BulkJob::start()
{
    if (m_state != BulkState::Idle) throw std::logic_error("BulkJob::start() called twice");
    m_started = std::chrono::steady_clock::now();
    std::error_code ec;
    if (std::filesystem::equivalent(m_options.input, m_options.output, ec))
        throw BulkJobError("the output " + m_options.output.string() + " is the input file");
    std::optional<JobInfo> previous;
    if (m_options.resume) previous = m_journal.findJob(m_options.input, m_options.output);
    if (previous && !(previous->fingerprint == InputFingerprint::of(m_options.input)))
        throw JournalError("cannot resume: " + m_options.input.string()
                           + " changed since the job started (size or time differs)");
    if (previous) {
        // The interrupted job's reading settings keep record numbers meaning the same rows.
        m_options.encoding = parseEncodingName(previous->description.encoding);
        // A job that promised no repeats keeps the promise when resumed.
        if (previous->description.options.find(";noRepeats=1") != std::string::npos) m_options.noRepeats = true;
    }
    if (m_options.noRepeats && !m_generator.offerAlternatives())
        throw BulkJobError("no repeats: the rows' other candidates do not come back from this generator (workers "
                           "through Redis keep only each row's best); run the job on one machine");
    m_total = countRecords();
    if (previous) {
        m_mapping = ColumnMapping::fromString(previous->description.mapping);
    } else {
        m_mapping = ColumnMapping::fromHeader(m_header);
        m_mapping.applyOverrides(m_options.mappingOverrides, m_header);
    }
    if (!m_mapping.hasPromptColumn())
        throw BulkJobError("no prompt column in " + m_options.input.string()
                           + ": name one 关键词/keywords, 上联/upper, 藏头/acrostic or 嵌名/embed, or map one");
    m_format = std::make_unique<ResultFormat>(m_header, m_options.outputOptions);
    openJob();
    CsvReaderOptions readerOptions;
    readerOptions.encoding = m_encoding;
    m_reader = std::make_unique<CsvReader>(m_options.input, readerOptions);
    m_state = BulkState::Running;
}

// A first pass finds malformed CSV before anything is generated, and gives
// the total for progress and ETA.
std::uint64_t BulkJob::countRecords()
{
    CsvReaderOptions readerOptions;
    readerOptions.encoding = m_options.encoding;
    CsvReader reader(m_options.input, readerOptions);
    m_encoding = reader.encoding();
    m_header = reader.header();
    CsvRecord record;
    while (reader.next(record)) {
    }
    return reader.recordsRead();
}

void BulkJob::openJob()
{
    const JobDescription description{m_options.input, m_options.output, encodingName(m_encoding),
                                     m_mapping.toString(), describeOptions(), m_format->header()};
    m_job = m_journal.createOrResumeJob(description, m_options.resume);
    if (m_job.resumed && m_job.description.outputHeader != description.outputHeader)
        throw BulkJobError("cannot resume into " + m_options.output.string()
                           + ": the output format, header language or BOM differ from the "
                             "interrupted job");
    m_journal.setTotalRecords(m_job.id, m_total);
    m_journal.setState(m_job.id, JobState::Running);
    m_done = m_journal.doneRecords(m_job.id);
    m_counts = m_journal.counts(m_job.id);
    m_journal.repairOutput(m_job.id);
    if (m_options.noRepeats)
        for (const auto record : m_done)
            if (const auto row = m_journal.row(m_job.id, record); row && row->result.status == RowStatus::Ok)
                m_written.insert({row->result.couplet.upper, row->result.couplet.lower});
    m_output.open(m_options.output, std::ios::binary | std::ios::app);
    if (!m_output)
        throw BulkJobError("cannot write " + m_options.output.string() + ": " + std::strerror(errno));
}

std::string BulkJob::describeOptions() const
{
    const OutputOptions& o = m_options.outputOptions;
    const GenerationSpec& d = m_options.defaults;
    const SamplingSettings& s = d.sampling;
    return std::string("format=") + (o.format == OutputFormat::Csv ? "csv" : "jsonl")
        + ";language=" + (o.language == HeaderLanguage::Chinese ? "zh" : "en")
        + ";bom=" + std::to_string(o.bom) + ";neutralize=" + std::to_string(o.neutralize)
        + ";length=" + std::to_string(d.length) + ";seed=" + std::to_string(s.seed)
        + ";temperature=" + std::to_string(s.temperature) + ";topK=" + std::to_string(s.topK)
        + ";topP=" + std::to_string(s.topP) + ";greedy=" + std::to_string(s.greedy)
        + ";repetitionPenalty=" + std::to_string(s.repetitionPenalty) + ";count=" + std::to_string(d.candidates)
        + ";rerank=" + std::to_string(d.rerank) + ";alignWeight=" + std::to_string(d.alignWeight)
        + ";lengthBias=" + std::to_string(d.lengthBias) + ";keywordBonus=" + std::to_string(d.keywordBonus)
        // Each absent for jobs from before its option, so that they still resume.
        + (d.year > 0 ? ";year=" + std::to_string(d.year) : std::string())
        + (d.bestOf > 0 ? ";bestOf=" + std::to_string(d.bestOf) : std::string())
        + (d.backwardWeight >= 0 ? ";backwardWeight=" + std::to_string(d.backwardWeight) : std::string())
        + (d.judgeWeight >= 0 ? ";judgeWeight=" + std::to_string(d.judgeWeight) : std::string())
        + (d.likelihoodWeight >= 0 ? ";likelihoodWeight=" + std::to_string(d.likelihoodWeight) : std::string())
        + (d.bigramWeight >= 0 ? ";bigramWeight=" + std::to_string(d.bigramWeight) : std::string())
        + (d.wholeKeywords ? std::string() : ";tornKeywords=1")
        + (d.embedAt != 1 ? ";embedAt=" + std::to_string(d.embedAt) : std::string())
        + (d.script != OutputScript::Simplified ? ";script=" + std::string(outputScriptName(d.script)) : std::string())
        + (d.style.empty() ? std::string() : ";style=" + d.style)
        + (m_options.noRepeats ? ";noRepeats=1" : std::string());
}

// noRepeats: the best of the row's couplets that the job has not written yet.
void BulkJob::chooseUnwritten(RowResult& result)
{
    if (result.status != RowStatus::Ok) return;
    const auto isFresh = [this](const Couplet& c) { return !m_written.count(c.upper) && !m_written.count(c.lower); };
    if (!isFresh(result.couplet)) {
        const auto fresh = std::find_if(result.alternatives.begin(), result.alternatives.end(), isFresh);
        if (fresh == result.alternatives.end()) ++m_repeated;
        else std::swap(result.couplet, *fresh);
    }
    m_written.insert(result.couplet.upper);
    m_written.insert(result.couplet.lower);
    result.alternatives.clear();
}

bool BulkJob::step()
{
    switch (m_state) {
    case BulkState::Idle: throw std::logic_error("BulkJob::step() before start()");
    case BulkState::Finished:
    case BulkState::Cancelled:
    case BulkState::Failed: return false;
    case BulkState::Running:
    case BulkState::Paused: break;
    }
    try {
        if (m_state == BulkState::Running) readAndSubmit();
        if (m_generating > 0) m_generator.poll();
        finishIfDone();
    } catch (...) {
        m_state = BulkState::Failed;
        throw;
    }
    return m_state == BulkState::Running || m_state == BulkState::Paused;
}

void BulkJob::run()
{
    while (step()) {
    }
}

bool BulkJob::isDone(std::uint64_t record)
{
    while (m_doneIndex < m_done.size() && m_done[m_doneIndex] < record) ++m_doneIndex;
    return m_doneIndex < m_done.size() && m_done[m_doneIndex] == record;
}

bool BulkJob::readAndSubmit()
{
    bool any = false;
    CsvRecord record;
    for (int budget = kReadBudget; budget > 0 && canRead(); --budget) {
        if (!m_reader->next(record)) {
            m_inputDone = true;
            break;
        }
        if (isDone(record.number)) {
            if (m_sink) announceEarlierRow(record);
            continue;
        }
        any = true;
        const SpecValidator validator = [this](const GenerationSpec& spec) {
            return m_generator.validate(spec);
        };
        PromptRow row = makePromptRow(std::move(record), m_header.size(), m_mapping,
                                      m_options.defaults, validator);
        record = CsvRecord();
        if (m_options.defaults.sampling.seed != 0)
            row.spec.sampling.seed = m_options.defaults.sampling.seed + row.recordNumber;
        if (!row.error.empty()) {
            RowResult invalid;
            invalid.status = RowStatus::Invalid;
            invalid.error = row.error;
            const std::uint64_t number = row.recordNumber;
            m_inFlight.emplace(number, Pending{std::move(row), std::move(invalid)});
            writeReadyRows();
        } else {
            submit(std::move(row));
        }
    }
    return any;
}

bool BulkJob::canRead() const
{
    return !m_inputDone && m_generating < m_options.maxInFlight
        && m_inFlight.size() < static_cast<std::size_t>(kReorderFactor) * m_options.maxInFlight;
}

void BulkJob::submit(PromptRow row)
{
    const std::uint64_t record = row.recordNumber;
    const auto it = m_inFlight.emplace(record, Pending{std::move(row), std::nullopt}).first;
    ++m_generating;
    m_generator.submit(it->second.row, [this, record](RowResult result) { finishRow(record, std::move(result)); });
}

void BulkJob::finishRow(std::uint64_t record, RowResult result)
{
    const auto it = m_inFlight.find(record);
    if (it == m_inFlight.end() || it->second.result) return;   // cancelled meanwhile
    if (m_options.noRepeats) chooseUnwritten(result);
    it->second.result = std::move(result);
    --m_generating;
    writeReadyRows();
}

// A row committed by an interrupted run, passed on resume: the sink gets it
// as the journal holds it.
void BulkJob::announceEarlierRow(CsvRecord& record)
{
    const auto committed = m_journal.row(m_job.id, record.number);
    if (!committed) return;
    PromptRow row;
    row.recordNumber = record.number;
    row.line = record.line;
    row.cells = std::move(record.fields);
    row.cells.resize(m_header.size());
    record = CsvRecord();
    m_sink->committed(row, committed->result, true);
}

// Writes finished rows from the front while no earlier row is still generating.
void BulkJob::writeReadyRows()
{
    while (!m_inFlight.empty() && m_inFlight.begin()->second.result) {
        const auto first = m_inFlight.begin();
        if (m_sink) m_sink->beforeWrite(first->second.row, *first->second.result);
        writeRow(first->second.row, *first->second.result);
        if (m_sink) m_sink->committed(first->second.row, *first->second.result, false);
        m_inFlight.erase(first);
    }
}

// The protocol's step 2: bytes to the file (flushed to the OS), then commit.
void BulkJob::writeRow(const PromptRow& row, const RowResult& result)
{
    const std::string bytes = m_format->row(row, result);
    m_output.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    m_output.flush();
    if (!m_output)
        throw BulkJobError("cannot write " + m_options.output.string() + ": " + std::strerror(errno));
    m_journal.markDone(m_job.id, {row.recordNumber, result, bytes});
    switch (result.status) {
    case RowStatus::Ok: ++m_counts.ok; break;
    case RowStatus::Invalid: ++m_counts.invalid; break;
    case RowStatus::Failed: ++m_counts.failed; break;
    }
    ++m_finishedThisRun;
}

void BulkJob::finishIfDone()
{
    if (!m_inputDone || !m_inFlight.empty() || m_state == BulkState::Finished) return;
    if (m_sink && !m_sink->settled()) return;
    m_state = BulkState::Finished;
    m_journal.setState(m_job.id, JobState::Finished);
}

void BulkJob::pause()
{
    if (m_state != BulkState::Running) return;
    m_state = BulkState::Paused;
    m_journal.setState(m_job.id, JobState::Paused);
}

void BulkJob::resume()
{
    if (m_state != BulkState::Paused) return;
    m_state = BulkState::Running;
    m_journal.setState(m_job.id, JobState::Running);
}

void BulkJob::cancel()
{
    if (m_state != BulkState::Running && m_state != BulkState::Paused) return;
    m_generator.cancelAll();
    m_inFlight.clear();
    m_generating = 0;
    m_state = BulkState::Cancelled;
    m_journal.setState(m_job.id, JobState::Cancelled);
}

BulkProgress BulkJob::progress() const
{
    BulkProgress p;
    p.state = m_state;
    p.total = m_total;
    p.read = m_reader ? m_reader->recordsRead() : 0;
    p.ok = m_counts.ok;
    p.invalid = m_counts.invalid;
    p.failed = m_counts.failed;
    p.inFlight = m_inFlight.size();
    p.repeated = m_repeated;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
    if (seconds > 0 && m_finishedThisRun > 0) {
        p.rowsPerSecond = static_cast<double>(m_finishedThisRun) / seconds;
        const double remaining = static_cast<double>(m_total > p.done() ? m_total - p.done() : 0);
        p.etaSeconds = remaining / p.rowsPerSecond;
    }
    return p;
}

} // namespace couplet
