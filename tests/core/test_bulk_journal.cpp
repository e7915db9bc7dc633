#include "bulk_journal.h"

#include "csv_test_util.h"

#include <check.h>

#include <sqlite3.h>

using namespace couplet;
using couplet::test::readFile;
using couplet::test::writeFile;

namespace {

JobDescription describe(const couplet::test::TempDir& dir)
{
    JobDescription d;
    d.input = dir / "in.csv";
    d.output = dir / "out.csv";
    d.encoding = "UTF-8";
    d.mapping = "keywords=0";
    d.options = "format=csv";
    d.outputHeader = "HEADER\r\n";
    return d;
}

JournalRow rowOf(std::uint64_t record, RowStatus status = RowStatus::Ok)
{
    JournalRow row;
    row.record = record;
    row.result.status = status;
    row.result.couplet = {"春回大地", "福满人间", "万象更新", -0.5, 100 + record, {}, 0, 0};
    row.result.model = "tiny";
    row.result.latencyMs = 3.5;
    row.outputBytes = "row" + std::to_string(record) + "\r\n";
    return row;
}

// Appends then commits, as BulkJob does.
void complete(BulkJournal& journal, std::int64_t job, const std::filesystem::path& out, std::uint64_t record)
{
    const JournalRow row = rowOf(record);
    std::ofstream(out, std::ios::binary | std::ios::app) << row.outputBytes;
    journal.markDone(job, row);
}

} // namespace

COUPLET_TEST(createsAJobAndStoresRows)
{
    couplet::test::TempDir dir;
    writeFile(dir / "in.csv", "k\na\nb\nc\n");
    BulkJournal journal(dir / "sub" / "jobs.sqlite");
    const JobInfo job = journal.createOrResumeJob(describe(dir), false);
    CHECK(!job.resumed);
    CHECK_EQ(job.fingerprint.size, std::uint64_t(8));
    CHECK_EQ(job.description.outputHeader, std::string("HEADER\r\n"));
    CHECK_EQ(journal.committedOutputLength(job.id), std::uint64_t(8));
    CHECK_EQ(journal.markDone(job.id, rowOf(2)), std::uint64_t(8 + 6));
    CHECK_EQ(journal.markDone(job.id, rowOf(3, RowStatus::Invalid)), std::uint64_t(8 + 12));
    CHECK_THROWS(journal.markDone(job.id, rowOf(2)), "record 2");
    CHECK(journal.doneRecords(job.id) == (std::vector<std::uint64_t>{2, 3}));
    CHECK(journal.pendingRecords(job.id, 4) == (std::vector<std::uint64_t>{1, 4}));
    CHECK_EQ(journal.counts(job.id).ok, std::uint64_t(1));
    CHECK_EQ(journal.counts(job.id).invalid, std::uint64_t(1));
    const auto row = journal.row(job.id, 2);
    CHECK(row.has_value());
    CHECK_EQ(row->result.couplet.lower, std::string("福满人间"));
    CHECK_EQ(row->result.couplet.seed, std::uint64_t(102));
    CHECK_EQ(row->result.couplet.upper, std::string("春回大地"));
    CHECK_EQ(row->result.couplet.hengpi, std::string("万象更新"));
    CHECK_NEAR(row->result.couplet.score, -0.5, 1e-12);
    CHECK_EQ(row->result.model, std::string("tiny"));
    CHECK_NEAR(row->result.latencyMs, 3.5, 1e-12);
    CHECK_EQ(row->outputBytes, std::string("row2\r\n"));
}

COUPLET_TEST(anUnknownJobStateIsAnError)
{
    couplet::test::TempDir dir;
    writeFile(dir / "in.csv", "k\na\n");
    std::int64_t id = 0;
    {
        BulkJournal journal(dir / "jobs.sqlite");
        id = journal.createOrResumeJob(describe(dir), false).id;
    }
    sqlite3* db = nullptr;
    CHECK_EQ(sqlite3_open((dir / "jobs.sqlite").string().c_str(), &db), SQLITE_OK);
    CHECK_EQ(sqlite3_exec(db, "UPDATE jobs SET state = 'exploded'", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    BulkJournal journal(dir / "jobs.sqlite");
    CHECK_THROWS(journal.job(id), "unknown state 'exploded'");
    CHECK_THROWS(journal.createOrResumeJob(describe(dir), true), "unknown state 'exploded'");
}

COUPLET_TEST(usesWalAndSurvivesReopening)
{
    couplet::test::TempDir dir;
    writeFile(dir / "in.csv", "k\na\n");
    std::int64_t id = 0;
    {
        BulkJournal journal(dir / "jobs.sqlite");
        id = journal.createOrResumeJob(describe(dir), false).id;
        journal.markDone(id, rowOf(1));
        journal.setTotalRecords(id, 1);
        journal.setState(id, JobState::Paused);
    }
    sqlite3* db = nullptr;
    CHECK_EQ(sqlite3_open((dir / "jobs.sqlite").string().c_str(), &db), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, nullptr);
    CHECK_EQ(sqlite3_step(stmt), SQLITE_ROW);
    CHECK_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0))), std::string("wal"));
    sqlite3_finalize(stmt);
    sqlite3_close(db);

    BulkJournal journal(dir / "jobs.sqlite");
    const JobInfo job = journal.createOrResumeJob(describe(dir), true);
    CHECK(job.resumed);
    CHECK_EQ(job.id, id);
    CHECK_EQ(job.totalRecords, std::int64_t(1));
    CHECK(job.state == JobState::Paused);
    CHECK(journal.doneRecords(id) == (std::vector<std::uint64_t>{1}));
}

COUPLET_TEST(resumeRefusesAChangedInput)
{
    couplet::test::TempDir dir;
    writeFile(dir / "in.csv", "k\na\n");
    BulkJournal journal(dir / "jobs.sqlite");
    journal.createOrResumeJob(describe(dir), false);
    writeFile(dir / "in.csv", "k\na\nb\n");
    CHECK_THROWS(journal.createOrResumeJob(describe(dir), true), "changed since the job started");
}

COUPLET_TEST(newJobReplacesOldJobsForTheSameOutput)
{
    couplet::test::TempDir dir;
    writeFile(dir / "in.csv", "k\na\n");
    BulkJournal journal(dir / "jobs.sqlite");
    const auto first = journal.createOrResumeJob(describe(dir), false).id;
    journal.markDone(first, rowOf(1));
    const auto second = journal.createOrResumeJob(describe(dir), false).id;
    CHECK(second != first);
    CHECK(journal.doneRecords(second).empty());
    CHECK_THROWS(journal.job(first), "no job");
    const auto found = journal.findJob(dir / "in.csv", dir / "out.csv");
    CHECK(found.has_value());
    CHECK_EQ(found->id, second);
}

COUPLET_TEST(repairCutsUncommittedAndTornRows)
{
    couplet::test::TempDir dir;
    writeFile(dir / "in.csv", "k\na\nb\nc\n");
    BulkJournal journal(dir / "jobs.sqlite");
    const auto job = journal.createOrResumeJob(describe(dir), false).id;
    CHECK_EQ(journal.repairOutput(job), std::uint64_t(8));   // a missing file gets the header
    CHECK_EQ(readFile(dir / "out.csv"), std::string("HEADER\r\n"));
    complete(journal, job, dir / "out.csv", 3);
    complete(journal, job, dir / "out.csv", 1);
    // Died after appending record 2 but before committing it, then mid-write.
    std::ofstream(dir / "out.csv", std::ios::binary | std::ios::app) << "row2\r\nro";
    CHECK_EQ(journal.repairOutput(job), std::uint64_t(20));
    CHECK_EQ(readFile(dir / "out.csv"), std::string("HEADER\r\nrow3\r\nrow1\r\n"));
}

COUPLET_TEST(repairRestoresRowsTheFileLost)
{
    couplet::test::TempDir dir;
    writeFile(dir / "in.csv", "k\na\nb\nc\n");
    BulkJournal journal(dir / "jobs.sqlite");
    const auto job = journal.createOrResumeJob(describe(dir), false).id;
    journal.repairOutput(job);
    for (std::uint64_t r : {2, 1, 3}) complete(journal, job, dir / "out.csv", r);
    const std::string whole = readFile(dir / "out.csv");
    // A power cut lost the file's tail; another time its middle was garbled.
    writeFile(dir / "out.csv", whole.substr(0, 11));
    journal.repairOutput(job);
    CHECK_EQ(readFile(dir / "out.csv"), whole);
    std::string garbled = whole;
    garbled[15] = 'X';
    writeFile(dir / "out.csv", garbled);
    journal.repairOutput(job);
    CHECK_EQ(readFile(dir / "out.csv"), whole);
    std::filesystem::remove(dir / "out.csv");
    CHECK_EQ(journal.repairOutput(job), std::uint64_t(whole.size()));
    CHECK_EQ(readFile(dir / "out.csv"), whole);
}

COUPLET_TEST(defaultPathFollowsXdg)
{
    setenv("XDG_DATA_HOME", "/tmp/xdg-test", 1);
    CHECK_EQ(BulkJournal::defaultPath(), std::filesystem::path("/tmp/xdg-test/couplet-studio/jobs.sqlite"));
    setenv("XDG_DATA_HOME", "relative", 1);
    setenv("HOME", "/home/someone", 1);
    CHECK_EQ(BulkJournal::defaultPath(),
             std::filesystem::path("/home/someone/.local/share/couplet-studio/jobs.sqlite"));
}
