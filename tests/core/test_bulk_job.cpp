#include "bulk_job.h"

#include "csv_test_util.h"
#include "fake_row_generator.h"

#include <check.h>

#include <algorithm>
#include <csignal>
#include <map>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace couplet;
using couplet::test::FakeRowGenerator;
using couplet::test::TempDir;

namespace {

// Row i: keywords "词i", except every 10th is empty (invalid), every 17th
// fails in the generator, every 23rd has a character the model lacks.
std::string keywordsOf(int i)
{
    if (i % 10 == 0) return "";
    if (i % 17 == 0) return "失败";
    if (i % 23 == 0) return "①";
    return "词" + std::to_string(i);
}

void writeInput(const std::filesystem::path& path, int rows)
{
    std::ofstream out(path, std::ios::binary);
    out << "\xEF\xBB\xBF" "id,关键词,字数,备注\r\n";
    for (int i = 1; i <= rows; ++i)
        out << i << "," << keywordsOf(i) << ",7,\"note " << i << ", with\r\n\"\"quotes\"\"\"\r\n";
}

BulkJobOptions optionsFor(const TempDir& dir, bool resume = false)
{
    BulkJobOptions o;
    o.input = dir / "in.csv";
    o.output = dir / "out.csv";
    o.resume = resume;
    o.maxInFlight = 8;
    o.defaults.sampling.seed = 1000;
    return o;
}

// Reads the output back and checks that each input row is there exactly
// once, with the result its keywords call for.
void checkOutput(const std::filesystem::path& path, int rows)
{
    CsvReader reader(path);
    CHECK_EQ(reader.header().size(), std::size_t(12));
    CHECK_EQ(reader.header()[4], std::string("上联"));
    std::map<int, int> seen;
    CsvRecord r;
    while (reader.next(r)) {
        CHECK(!r.ragged);
        const int id = std::stoi(r.fields[0]);
        ++seen[id];
        CHECK_EQ(r.fields[3], "note " + std::to_string(id) + ", with\r\n\"quotes\"");
        const std::string k = keywordsOf(id);
        const std::string& status = r.fields[7];
        if (k.empty() || k == "①") {
            CHECK_EQ(status, std::string("invalid"));
            CHECK(!r.fields[8].empty());
        } else if (k == "失败") {
            CHECK_EQ(status, std::string("failed"));
        } else {
            CHECK_EQ(status, std::string("ok"));
            CHECK_EQ(r.fields[4], "上" + k);
            CHECK_EQ(r.fields[10], std::to_string(1000 + id));
        }
    }
    CHECK_EQ(seen.size(), std::size_t(rows));
    for (const auto& [id, count] : seen) {
        CHECK(id >= 1 && id <= rows);
        CHECK_EQ(count, 1);
    }
}

// Runs a job for `steps` steps, then drops it as a crash would.
void runThenCrash(const TempDir& dir, BulkJournal& journal, bool resume, int steps, std::uint32_t seed)
{
    FakeRowGenerator generator(seed);
    BulkJob job(optionsFor(dir, resume), journal, generator);
    job.start();
    for (int i = 0; i < steps && job.step(); ++i) {
    }
}

} // namespace

COUPLET_TEST(runsAJobToTheEnd)
{
    TempDir dir;
    writeInput(dir / "in.csv", 300);
    BulkJournal journal(dir / "jobs.sqlite");
    FakeRowGenerator generator;
    BulkJob job(optionsFor(dir), journal, generator);
    job.start();
    CHECK_EQ(job.progress().total, std::uint64_t(300));
    job.run();
    const BulkProgress p = job.progress();
    CHECK(p.state == BulkState::Finished);
    CHECK_EQ(p.done(), std::uint64_t(300));
    CHECK_EQ(p.invalid, std::uint64_t(30 + 12));    // every 10th, and every 23rd but not the 230th
    CHECK_EQ(p.failed, std::uint64_t(16));          // every 17th but not the 170th
    CHECK(generator.maxInFlight <= 8);
    CHECK_EQ(generator.submitted, std::size_t(300 - 42));
    CHECK(journal.job(job.jobId()).state == JobState::Finished);
    checkOutput(dir / "out.csv", 300);
}

COUPLET_TEST(simulatedCrashesThenResumeGiveEachRowOnce)
{
    TempDir dir;
    writeInput(dir / "in.csv", 400);
    BulkJournal journal(dir / "jobs.sqlite");
    runThenCrash(dir, journal, false, 30, 1);
    const auto afterFirst = journal.counts(journal.findJob(dir / "in.csv", dir / "out.csv")->id).done();
    CHECK(afterFirst > 0 && afterFirst < 400);
    // A torn write: part of a row that never got committed.
    std::ofstream(dir / "out.csv", std::ios::binary | std::ios::app) << "999,torn";
    runThenCrash(dir, journal, true, 25, 2);
    runThenCrash(dir, journal, true, 40, 3);
    FakeRowGenerator generator(4);
    BulkJob job(optionsFor(dir, true), journal, generator);
    job.start();
    CHECK(job.resumed());
    job.run();
    CHECK_EQ(job.progress().done(), std::uint64_t(400));
    checkOutput(dir / "out.csv", 400);
}

// Rows finish in a shuffled order; the output keeps the input's order,
// across crashes and resumes too.
COUPLET_TEST(outputIsInInputOrder)
{
    TempDir dir;
    writeInput(dir / "in.csv", 500);
    BulkJournal journal(dir / "jobs.sqlite");
    runThenCrash(dir, journal, false, 40, 5);
    runThenCrash(dir, journal, true, 30, 6);
    FakeRowGenerator generator(7, 2);
    BulkJob job(optionsFor(dir, true), journal, generator);
    job.start();
    job.run();
    CHECK(generator.maxInFlight <= 8);
    checkOutput(dir / "out.csv", 500);
    CsvReader reader(dir / "out.csv");
    CsvRecord r;
    int previous = 0;
    while (reader.next(r)) {
        const int id = std::stoi(r.fields[0]);
        CHECK_EQ(id, previous + 1);
        previous = id;
    }
    CHECK_EQ(previous, 500);
}

COUPLET_TEST(killedProcessResumesWithEachRowOnce)
{
    TempDir dir;
    writeInput(dir / "in.csv", 3000);
    const pid_t child = fork();
    if (child == 0) {
        try {
            BulkJournal journal(dir / "jobs.sqlite");
            FakeRowGenerator generator(5, 1);
            BulkJob job(optionsFor(dir), journal, generator);
            job.start();
            while (job.step()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "child: %s\n", e.what());
            _exit(2);
        }
        _exit(0);
    }
    // Kill it somewhere in the middle; where exactly does not matter.
    for (int i = 0; i < 2000; ++i) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(dir / "out.csv", ec);
        if (!ec && size > 20000) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    CHECK(WIFSIGNALED(status));

    BulkJournal journal(dir / "jobs.sqlite");
    FakeRowGenerator generator(6);
    BulkJob job(optionsFor(dir, true), journal, generator);
    job.start();
    CHECK(job.resumed());
    CHECK(job.progress().done() > 0);
    job.run();
    checkOutput(dir / "out.csv", 3000);
}

COUPLET_TEST(pauseStopsSubmittingAndCancelLeavesRowsPending)
{
    TempDir dir;
    writeInput(dir / "in.csv", 100);
    BulkJournal journal(dir / "jobs.sqlite");
    {
        FakeRowGenerator generator;
        BulkJob job(optionsFor(dir), journal, generator);
        job.start();
        job.step();
        job.pause();
        const std::size_t submitted = generator.submitted;
        for (int i = 0; i < 20; ++i) CHECK(job.step());
        CHECK_EQ(generator.submitted, submitted);
        CHECK_EQ(generator.inFlight(), std::size_t(0));
        job.resume();
        job.step();
        job.step();
        job.cancel();
        CHECK(!job.step());
        CHECK(job.progress().state == BulkState::Cancelled);
        CHECK(journal.job(job.jobId()).state == JobState::Cancelled);
    }
    FakeRowGenerator generator;
    BulkJob job(optionsFor(dir, true), journal, generator);
    job.start();
    job.run();
    checkOutput(dir / "out.csv", 100);
}

COUPLET_TEST(malformedInputFailsBeforeAnyGeneration)
{
    TempDir dir;
    couplet::test::writeFile(dir / "in.csv", "id,关键词\n1,春\n2,\"福\n");
    BulkJournal journal(dir / "jobs.sqlite");
    FakeRowGenerator generator;
    BulkJob job(optionsFor(dir), journal, generator);
    CHECK_THROWS(job.start(), "line 3, column 3: unclosed quote");
    CHECK_EQ(generator.submitted, std::size_t(0));
    CHECK(!std::filesystem::exists(dir / "out.csv"));
}

COUPLET_TEST(aFileWithoutPromptColumnIsRefused)
{
    TempDir dir;
    couplet::test::writeFile(dir / "in.csv", "name,note\na,b\n");
    BulkJournal journal(dir / "jobs.sqlite");
    FakeRowGenerator generator;
    BulkJob job(optionsFor(dir), journal, generator);
    CHECK_THROWS(job.start(), "no prompt column");
    BulkJobOptions sameFile = optionsFor(dir);
    sameFile.output = sameFile.input;
    BulkJob overwriting(sameFile, journal, generator);
    CHECK_THROWS(overwriting.start(), "is the input file");
    BulkJobOptions mapped = optionsFor(dir);
    mapped.mappingOverrides = "keywords=name";
    BulkJob withMapping(mapped, journal, generator);
    withMapping.start();
    withMapping.run();
    CHECK_EQ(withMapping.progress().ok, std::uint64_t(1));
}

COUPLET_TEST(resumeKeepsTheOutputSettings)
{
    TempDir dir;
    writeInput(dir / "in.csv", 50);
    BulkJournal journal(dir / "jobs.sqlite");
    runThenCrash(dir, journal, false, 3, 1);
    BulkJobOptions english = optionsFor(dir, true);
    english.outputOptions.language = HeaderLanguage::English;
    FakeRowGenerator generator;
    BulkJob job(english, journal, generator);
    CHECK_THROWS(job.start(), "differ from the interrupted job");
}

COUPLET_TEST(writesJsonLinesAndGbkInput)
{
    TempDir dir;
    couplet::test::writeFile(dir / "in.csv",
                             couplet::test::convertFromUtf8("序号,关键词\r\n1,五福\r\n2,=SUM(1)\r\n", "GB18030"));
    BulkJournal journal(dir / "jobs.sqlite");
    FakeRowGenerator generator;
    BulkJobOptions o = optionsFor(dir);
    o.output = dir / "out.jsonl";
    o.outputOptions.format = OutputFormat::JsonLines;
    BulkJob job(o, journal, generator);
    job.start();
    CHECK(job.encoding() == TextEncoding::Gb18030);
    job.run();
    const std::string text = couplet::test::readFile(dir / "out.jsonl");
    CHECK_EQ(std::count(text.begin(), text.end(), '\n'), 2);
    CHECK(text.find("\"upper\":\"上五福\"") != std::string::npos);
    CHECK(text.find("\"关键词\":\"=SUM(1)\"") != std::string::npos);
}

namespace {

// Records what a CommittedRowSink is told; notes an error on every 7th ok
// row before it is written; is not settled for its first few asks.
struct RecordingSink : CommittedRowSink {
    std::map<std::uint64_t, int> fresh, earlier;   // record -> calls
    int unsettledAsks = 3;
    int asks = 0;

    void beforeWrite(const PromptRow& row, RowResult& result) override
    {
        if (result.status == RowStatus::Ok && row.recordNumber % 7 == 0) result.error = "no poster: test";
    }
    void committed(const PromptRow& row, const RowResult&, bool earlierRun) override
    {
        ++(earlierRun ? earlier : fresh)[row.recordNumber];
    }
    bool settled() override { return ++asks > unsettledAsks; }
};

} // namespace

// The sink hears of every row once per run: new rows as they are
// committed, and on resume the rows an earlier run committed, each once,
// with the id cell at hand; the job is finished only once the sink settles.
COUPLET_TEST(committedRowSinkHearsOfEveryRowOnceAcrossACrash)
{
    TempDir dir;
    writeInput(dir / "in.csv", 200);
    BulkJournal journal(dir / "jobs.sqlite");
    RecordingSink first;
    {
        FakeRowGenerator generator(3);
        BulkJob job(optionsFor(dir), journal, generator);
        job.start();
        job.setCommittedRowSink(&first);
        for (int i = 0; i < 20 && job.step(); ++i) {
        }
    }
    const std::int64_t jobId = journal.findJob(dir / "in.csv", dir / "out.csv")->id;
    const std::vector<std::uint64_t> doneBefore = journal.doneRecords(jobId);
    CHECK(!doneBefore.empty() && doneBefore.size() < 200);
    CHECK_EQ(first.fresh.size(), doneBefore.size());
    CHECK(first.earlier.empty());

    RecordingSink second;
    FakeRowGenerator generator(4);
    BulkJob job(optionsFor(dir, true), journal, generator);
    job.start();
    job.setCommittedRowSink(&second);
    while (job.step()) {
        if (job.progress().done() == 200) CHECK(journal.job(jobId).state == JobState::Running);
    }
    CHECK(job.progress().state == BulkState::Finished);
    CHECK_EQ(second.asks, second.unsettledAsks + 1);
    CHECK_EQ(second.earlier.size(), doneBefore.size());
    for (std::uint64_t r : doneBefore) CHECK_EQ(second.earlier[r], 1);
    for (std::uint64_t r = 1; r <= 200; ++r) {
        const bool before = std::binary_search(doneBefore.begin(), doneBefore.end(), r);
        CHECK_EQ(second.fresh.count(r), std::size_t(before ? 0 : 1));
        if (!before) CHECK_EQ(second.fresh[r], 1);
    }
    // The note made before writing is in the row's error column.
    CsvReader reader(dir / "out.csv");
    CsvRecord rec;
    int noted = 0;
    while (reader.next(rec)) noted += rec.fields[8] == "no poster: test";
    CHECK(noted > 0);
}

namespace {

// `rows` rows of the same two requests (福 for odd ids, 春 for even ones).
void writeRepeatedInput(const std::filesystem::path& path, int rows)
{
    std::ofstream out(path, std::ios::binary);
    out << "id,关键词\n";
    for (int i = 1; i <= rows; ++i) out << i << "," << (i % 2 ? "福" : "春") << "\n";
}

// The output's 上联 by id.
std::map<int, std::string> uppersOf(const std::filesystem::path& path)
{
    CsvReader reader(path);
    std::map<int, std::string> out;
    CsvRecord r;
    while (reader.next(r)) out[std::stoi(r.fields[0])] = r.fields[2];
    return out;
}

} // namespace

// With noRepeats a row whose best couplet was already written takes its best
// unwritten candidate; when all were written it repeats one and is counted.
// Without it, the same request gives the same couplet every time.
COUPLET_TEST(noRepeatsTakesTheBestCandidateNotYetWritten)
{
    TempDir dir;
    writeRepeatedInput(dir / "in.csv", 10);
    BulkJournal journal(dir / "jobs.sqlite");
    {
        FakeRowGenerator generator;
        BulkJob job(optionsFor(dir), journal, generator);
        job.start();
        job.run();
        CHECK(!generator.alternatives);
        std::set<std::string> distinct;
        for (const auto& [id, upper] : uppersOf(dir / "out.csv")) distinct.insert(upper);
        CHECK_EQ(distinct.size(), std::size_t(2));
    }
    auto o = optionsFor(dir);
    o.noRepeats = true;
    o.output = dir / "varied.csv";
    FakeRowGenerator generator;
    BulkJob job(o, journal, generator);
    job.start();
    CHECK(generator.alternatives);
    job.run();
    const auto uppers = uppersOf(dir / "varied.csv");
    CHECK_EQ(uppers.size(), std::size_t(10));
    std::map<std::string, int> count;
    for (const auto& [id, upper] : uppers) ++count[upper];
    // Each request has three candidates: 上福, 上福二, 上福三 (and 春's); five rows each.
    for (const char* k : {"福", "春"})
        for (const char* mark : {"", "二", "三"}) CHECK(count[std::string("上") + k + mark] >= 1);
    CHECK_EQ(count.size(), std::size_t(6));
    CHECK_EQ(job.progress().repeated, std::uint64_t(4));
}

// A resumed job remembers what its interrupted run wrote (from the journal),
// and keeps its no-repeat promise even when resumed without the option.
COUPLET_TEST(noRepeatsHoldsAcrossACrashAndResume)
{
    TempDir dir;
    writeRepeatedInput(dir / "in.csv", 6);
    BulkJournal journal(dir / "jobs.sqlite");
    auto o = optionsFor(dir);
    o.noRepeats = true;
    o.maxInFlight = 1;   // one row at a time: the crash leaves some rows done, some not
    {
        FakeRowGenerator generator(1, 1);
        BulkJob job(o, journal, generator);
        job.start();
        for (int i = 0; i < 4 && job.step(); ++i) {
        }
    }
    const auto done = journal.counts(journal.findJob(dir / "in.csv", dir / "out.csv")->id).done();
    CHECK(done >= 1 && done < 6);
    auto resumed = optionsFor(dir, true);   // noRepeats not given again
    FakeRowGenerator generator(2);
    BulkJob job(resumed, journal, generator);
    job.start();
    CHECK(generator.alternatives);
    job.run();
    std::map<std::string, int> count;
    for (const auto& [id, upper] : uppersOf(dir / "out.csv")) ++count[upper];
    CHECK_EQ(count.size(), std::size_t(6));   // 3 candidates x 2 requests, each once
    for (const auto& [upper, n] : count) CHECK_EQ(n, 1);

    // A generator that cannot hand back candidates (workers) is refused by name.
    auto other = optionsFor(dir);
    other.output = dir / "other.csv";
    other.noRepeats = true;
    FakeRowGenerator workers;
    workers.canOfferAlternatives = false;
    BulkJob refused(other, journal, workers);
    CHECK_THROWS(refused.start(), "no repeats: the rows' other candidates do not come back");
}
