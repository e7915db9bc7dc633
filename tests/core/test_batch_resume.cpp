// Kills `couplet batch` with SIGKILL at random moments, resumes it each time,
// and checks the output row by row against the input (every row exactly once)
// and against an uninterrupted run with the same seeds (the same couplets).
// The kill moments are drawn from a printed seed; COUPLET_TEST_SEED=N replays
// the same choices.

#include "check.h"
#include "couplet_generator.h"
#include "sampler.h"
#include "csv_test_util.h"
#include "cli_under_test.h"
#include "tiny_model.h"

#include "csv_reader.h"
#include "utf8.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace couplet;
using couplet::test::TempDir;

namespace {

// Enough rows that a run takes many kills: the native decoder writes 200 rows
// of the tiny model in under a second, and a run then ended after 3 or 4 kills.
constexpr int kRows = 800;
constexpr int kMaxKills = 30;
constexpr int kMinMidJobKills = 3;

struct InputRow {
    std::vector<std::string> cells;   // id, 关键词, 字数, note
    bool valid = true;
};

// Valid rows cycle through keywords and lengths; every few rows is unusable
// for a different reason. Notes carry commas, quotes and line breaks.
std::vector<InputRow> makeRows()
{
    const std::vector<std::string> keywords{"春风", "福", "新年 吉祥", "龙凤", "金玉满堂", "山水", "平安"};
    std::vector<InputRow> rows;
    for (int i = 1; i <= kRows; ++i) {
        InputRow r;
        std::string keyword = keywords[static_cast<std::size_t>(i) % keywords.size()];
        std::string length(i % 3 == 0 ? "5" : "7");
        if (i % 29 == 0) { keyword.clear(); r.valid = false; }           // empty prompt
        else if (i % 31 == 0) { keyword = "hello"; r.valid = false; }    // not Chinese
        else if (i % 37 == 0) { keyword = "龘"; r.valid = false; }       // unknown to the model
        else if (i % 41 == 0) { length = "99"; r.valid = false; }       // bad length
        std::string note = i % 4 == 0 ? "a, \"quoted\"\nnote " : "n";
        note += std::to_string(i);
        std::string id = "r";
        id += std::to_string(i);
        r.cells = {id, keyword, length, note};
        rows.push_back(std::move(r));
    }
    return rows;
}

std::string csvField(const std::string& cell)
{
    if (cell.find_first_of(",\"\n") == std::string::npos) return cell;
    std::string out = "\"";
    for (char c : cell) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

void writeInput(const std::filesystem::path& path, const std::vector<InputRow>& rows)
{
    std::string text = "id,关键词,字数,note\n";
    for (const auto& r : rows) {
        for (std::size_t c = 0; c < r.cells.size(); ++c) {
            if (c > 0) text += ',';
            text += csvField(r.cells[c]);
        }
        text += '\n';
    }
    couplet::test::writeFile(path, text);
}

// A started CLI process. Its exit status is kept when it is reaped, so that
// a crash while the test polls it is never mistaken for a clean exit.
struct Child {
    pid_t pid = -1;
    std::optional<int> exit;   // the exit code, or -signal

    static int decode(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status); }

    bool ended()
    {
        int status = 0;
        if (!exit && ::waitpid(pid, &status, WNOHANG) == pid) exit = decode(status);
        return exit.has_value();
    }

    int wait()
    {
        int status = 0;
        if (!exit) {
            if (::waitpid(pid, &status, 0) != pid) throw std::runtime_error("waitpid failed");
            exit = decode(status);
        }
        return *exit;
    }
};

// Starts the CLI; its stdout and stderr go to `log`.
Child startBatch(const std::vector<std::string>& args, const std::filesystem::path& log)
{
    const pid_t pid = fork();
    if (pid != 0) return Child{pid, std::nullopt};
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    std::_Exit(127);
}

int waitExit(Child child)
{
    return child.wait();
}

// Data rows whose CRLF terminator is on disk (notes hold LF only).
int rowsOnDisk(const std::filesystem::path& output)
{
    if (!std::filesystem::exists(output)) return 0;
    const std::string text = couplet::test::readFile(output);
    int lines = 0;
    for (std::size_t p = text.find("\r\n"); p != std::string::npos; p = text.find("\r\n", p + 2)) ++lines;
    return std::max(0, lines - 1);
}

std::vector<std::string> batchArgs(const TempDir& dir, const std::string& output, const std::string& journal)
{
    return {testing::cliUnderTest(), "batch", (dir / "input.csv").string(), "-o", (dir / output).string(), "--resume",
            "--model", (dir / "model").string(), "--device", "cpu", "--threads", "1", "--batch", "4",
            "--seed", "7", "--journal", (dir / journal).string()};
}

void checkOutput(const std::filesystem::path& output, const std::vector<InputRow>& input)
{
    CsvReader reader(output);
    const std::vector<std::string> expected{"id", "关键词", "字数", "note", "上联", "下联", "横批",
                                            "status", "error", "model", "seed", "latency_ms"};
    CHECK(reader.header() == expected);
    std::map<std::string, int> seen;
    CsvRecord record;
    while (reader.next(record)) {
        CHECK_EQ(record.fields.size(), expected.size());
        const std::string& id = record.fields[0];
        CHECK_EQ(++seen[id], 1);
        const int index = std::stoi(id.substr(1)) - 1;
        CHECK(index >= 0 && index < kRows);
        const InputRow& in = input[static_cast<std::size_t>(index)];
        for (std::size_t c = 0; c < in.cells.size(); ++c) CHECK_EQ(record.fields[c], in.cells[c]);
        const std::string& status = record.fields[7];
        if (!in.valid) {
            CHECK_EQ(status, std::string("invalid"));
            CHECK(!record.fields[8].empty());
            continue;
        }
        CHECK_EQ(status, std::string("ok"));
        const std::size_t length = static_cast<std::size_t>(std::stoi(in.cells[2]));
        CHECK_EQ(utf8::length(record.fields[4]), length);
        CHECK_EQ(utf8::length(record.fields[5]), length);
        CHECK_EQ(utf8::length(record.fields[6]), std::size_t{4});
        // The row's seed is --seed + record number; the column names the chosen
        // candidate's, one of the kBulkRerankFactor that seed's group sampled.
        const auto rowSeed = static_cast<std::uint64_t>(7 + index + 1);
        bool fromTheRow = false;
        for (int k = 0; k < kBulkRerankFactor; ++k) fromTheRow |= record.fields[10] == std::to_string(candidateSeed(rowSeed, k));
        CHECK(fromTheRow);
    }
    CHECK_EQ(seen.size(), static_cast<std::size_t>(kRows));
}

// id -> every field but latency_ms: what a run with the same seeds repeats.
std::map<std::string, std::vector<std::string>> rowsWithoutTimes(const std::filesystem::path& output)
{
    CsvReader reader(output);
    std::map<std::string, std::vector<std::string>> rows;
    CsvRecord record;
    while (reader.next(record)) {
        record.fields.pop_back();   // latency_ms
        rows[record.fields.at(0)] = record.fields;
    }
    return rows;
}

void checkSameCouplets(const std::filesystem::path& output, const std::filesystem::path& clean)
{
    const auto resumed = rowsWithoutTimes(output);
    const auto reference = rowsWithoutTimes(clean);
    for (const auto& [id, fields] : reference) {
        const auto it = resumed.find(id);
        if (it == resumed.end() || it->second != fields)
            std::cout << "row " << id << " differs from the uninterrupted run: "
                      << (it == resumed.end() ? std::string("missing") : it->second.at(4) + " / " + it->second.at(5))
                      << " vs " << fields.at(4) << " / " << fields.at(5) << '\n';
    }
    CHECK(resumed == reference);
}

unsigned killSeed()
{
    const char* text = std::getenv("COUPLET_TEST_SEED");
    return text != nullptr ? static_cast<unsigned>(std::stoul(text)) : std::random_device{}();
}

// Waits until the output holds `target` rows or the child ended (its status
// kept), then a little more, so that kills land at random moments while rows
// are written.
void waitForRows(Child& child, const std::filesystem::path& output, int target, double extraMs)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (rowsOnDisk(output) < target && std::chrono::steady_clock::now() < deadline) {
        if (child.ended()) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(extraMs));
}

} // namespace

COUPLET_TEST(killedBatchJobsResumeWithEveryRowExactlyOnce)
{
    TempDir dir;
    couplet::testing::writeTinyModel(dir / "model");
    const std::vector<InputRow> input = makeRows();
    writeInput(dir / "input.csv", input);

    // An uninterrupted run: the reference for a clean output, and the time
    // scale of kills during start-up (loading the model, repairing the output).
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_EQ(waitExit(startBatch(batchArgs(dir, "clean.csv", "clean.sqlite"), dir / "clean.log")), 0);
    const double fullMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    checkOutput(dir / "clean.csv", input);

    const unsigned seed = killSeed();
    std::cout << "full run " << fullMs << " ms; kill moments seeded with " << seed
              << " (replay: COUPLET_TEST_SEED=" << seed << ")\n";
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    const auto output = dir / "output.csv";
    int kills = 0, midJob = 0, finishedEarly = 0;
    for (int attempt = 0; attempt < kMaxKills; ++attempt) {
        const int before = rowsOnDisk(output);
        Child child = startBatch(batchArgs(dir, "output.csv", "jobs.sqlite"), dir / "run.log");
        if (unit(rng) < 0.25)
            std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(unit(rng) * fullMs * 0.5));
        else
            waitForRows(child, output, before + 1 + static_cast<int>(unit(rng) * 15), unit(rng) * 20);
        // Not reaped yet, the pid cannot have been reused: a zombie takes the kill.
        if (!child.exit) ::kill(child.pid, SIGKILL);
        const int exit = child.wait();
        if (exit == 0) {   // finished before the kill
            ++finishedEarly;
            break;
        }
        if (exit != -SIGKILL)
            std::cout << "run " << attempt << " ended by itself with " << exit << ":\n"
                      << couplet::test::readFile(dir / "run.log");
        CHECK_EQ(exit, -SIGKILL);
        ++kills;
        const int done = rowsOnDisk(output);
        // Resumed, not restarted: committed rows stay; only a row written
        // but not yet committed when the kill came may be cut off.
        CHECK(done >= before - 1);
        if (done > 0 && done < kRows) ++midJob;
        if (done >= kRows) break;
    }
    std::cout << kills << " kills, " << midJob << " with the output partly written, " << finishedEarly
              << " run finished before its kill\n";
    CHECK(midJob >= kMinMidJobKills);
    if (rowsOnDisk(output) < kRows) {
        // Without --resume an unfinished job is reported, and its output left alone.
        auto args = batchArgs(dir, "output.csv", "jobs.sqlite");
        args.erase(std::find(args.begin(), args.end(), "--resume"));
        const std::string before = couplet::test::readFile(output);
        CHECK_EQ(waitExit(startBatch(args, dir / "refused.log")), 1);
        CHECK(couplet::test::readFile(dir / "refused.log").find("use --resume") != std::string::npos);
        CHECK(couplet::test::readFile(output) == before);
    }
    const int finalExit = waitExit(startBatch(batchArgs(dir, "output.csv", "jobs.sqlite"), dir / "final.log"));
    const std::string finalLog = couplet::test::readFile(dir / "final.log");
    if (finalExit != 0) std::cout << finalLog;
    CHECK_EQ(finalExit, 0);
    CHECK(finalLog.find("resuming job") != std::string::npos);
    checkOutput(output, input);
    checkSameCouplets(output, dir / "clean.csv");
}
