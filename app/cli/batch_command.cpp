#include "batch_progress.h"
#include "commands.h"
#include "model_options.h"

#include "bulk_job.h"
#include "bulk_journal.h"
#include "scheduler_row_generator.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>

namespace couplet::cli {
namespace {

constexpr int kExitInterrupted = 130;

volatile std::sig_atomic_t g_interrupted = 0;

void onInterrupt(int)
{
    g_interrupted = 1;
}

void printHelp()
{
    std::cout
        << "couplet batch INPUT.csv -o OUTPUT.csv [options]\n"
           "Writes a couplet for every row of a CSV file. The output holds every input column in\n"
           "order, then 上联 下联 横批 status error model seed latency_ms, one row per input row\n"
           "(in the order rows finish; the id column or the input columns tell them apart).\n"
           "Unusable rows (empty prompt, bad length, characters the model does not know) are\n"
           "kept with status \"invalid\" and the reason; the job goes on.\n"
           "\n"
           "Input columns, named in Chinese or English (case and spaces ignored):\n"
           "  关键词/keywords  上联/upper  藏头/acrostic  字数/length  横批/hengpi  id\n"
           "A row uses 上联 when filled, else 藏头, else 关键词. Other columns are copied through.\n"
           "\n"
           "options:\n"
           "  -o, --output PATH     output file (required); .jsonl or .ndjson gives JSON Lines\n"
           "  --encoding E          input encoding: auto (default), utf-8, utf-16le, utf-16be,\n"
           "                        gb18030 (also gbk, gb2312, cp936); auto reads BOMs and tells\n"
           "                        UTF-8 from GB18030 (what Excel saves on Chinese Windows)\n"
           "  --format F            csv or jsonl (default: from the output's extension)\n"
           "  --bom                 start CSV output with a UTF-8 BOM, for Excel on Windows\n"
           "  --english-headers     name the added columns upper, lower, hengpi (default 上联 ...)\n"
           "  --keep-formulas       do not defuse cells that begin with = + - @ (default: a leading\n"
           "                        ' is added, against CSV formula injection)\n"
           "  --map ROLE=COL[;...]  map columns by hand: ROLE is keywords, upper, acrostic, length,\n"
           "                        hengpi or id; COL a header name or a 0-based column number,\n"
           "                        e.g. --map \"upper=上句;length=2\"\n"
           "  --length N            characters per line when a row has no 字数 (default 7; 0 free)\n"
           "  --count N             candidates per row; the best by model score is kept (default 1)\n"
           "  --seed N              reproducible output: row r uses seed N + r (default random)\n"
           "  --temperature T --top-k K --top-p P --greedy --tone --free-hengpi\n"
           "                        sampling and constraints, as in 'couplet generate'\n"
           "  --batch N             sequences decoded together (default 32)\n"
           "  --journal PATH        job journal (default $XDG_DATA_HOME/couplet-studio/jobs.sqlite)\n"
           "  --quiet               no progress output\n"
           "\n"
           "Resuming. Every finished row is recorded in the journal (SQLite, WAL) as it is\n"
           "appended to the output, so a job stopped in any way (Ctrl-C, kill -9, power loss)\n"
           "can be continued: every input row ends up in the output exactly once.\n"
           "  --resume              continue the unfinished job for the same INPUT and OUTPUT\n"
           "                        (starts a new job when there is none); the input must be\n"
           "                        unchanged and the output format the same\n"
           "  --restart             discard an unfinished job for INPUT and OUTPUT and start over\n"
           "Without either, if an unfinished job exists for the same INPUT and OUTPUT the command\n"
           "stops with an error instead of overwriting its output. An existing OUTPUT that\n"
           "belongs to no unfinished job is overwritten.\n"
           "\n"
           "Progress goes to stderr: a bar with rows/s and ETA on a terminal, a line every 5 s\n"
           "otherwise. Exit status: 0 when the job finished (even with invalid or failed rows),\n"
           "1 on an error (missing or malformed input, output equal to input, a job that cannot\n"
           "be resumed), 2 on a usage error, 130 when interrupted (continue with --resume).\n"
        << modelOptionsHelp();
}

struct BatchSettings {
    BulkJobOptions job;
    std::filesystem::path journal;
    bool restart = false;
    bool quiet = false;
    int batch = 32;
};

// INPUT and "-o OUTPUT" are positional to Args, which knows only --options.
void takePaths(Args& args, BatchSettings& s)
{
    std::string output = args.value("output");
    std::vector<std::string> rest;
    const auto positional = args.positional();
    for (std::size_t i = 0; i < positional.size(); ++i) {
        if (positional[i] == "-o") {
            if (i + 1 >= positional.size()) throw UsageError("-o needs a file name");
            output = positional[++i];
        } else {
            rest.push_back(positional[i]);
        }
    }
    if (rest.size() != 1) throw UsageError("give one input file (see --help)");
    if (output.empty()) throw UsageError("give the output file with -o OUTPUT.csv");
    s.job.input = std::filesystem::absolute(rest.front()).lexically_normal();
    s.job.output = std::filesystem::absolute(output).lexically_normal();
}

void takeOutputOptions(Args& args, BatchSettings& s)
{
    OutputOptions& o = s.job.outputOptions;
    o.bom = args.flag("bom");
    o.neutralize = !args.flag("keep-formulas");
    o.language = args.flag("english-headers") ? HeaderLanguage::English : HeaderLanguage::Chinese;
    const std::string format = args.value("format");
    if (format.empty())
        o.format = ResultFormat::formatForPath(s.job.output);
    else if (format == "csv")
        o.format = OutputFormat::Csv;
    else if (format == "jsonl" || format == "ndjson")
        o.format = OutputFormat::JsonLines;
    else
        throw UsageError("--format expects csv or jsonl, got '" + format + "'");
    const std::string encoding = args.value("encoding", "auto");
    if (encoding != "auto") {
        s.job.encoding = parseEncodingName(encoding);
        if (!s.job.encoding)
            throw UsageError("unknown encoding '" + encoding
                             + "' (use auto, utf-8, utf-16le, utf-16be, gb18030 or gbk)");
    }
}

void takeGenerationOptions(Args& args, BatchSettings& s)
{
    GenerationSpec& spec = s.job.defaults;
    spec.length = args.integer("length", 7);
    spec.candidates = args.integer("count", 1);
    const int seed = args.integer("seed", 0);
    if (seed < 0) throw UsageError("--seed must not be negative");
    spec.sampling.seed = static_cast<std::uint64_t>(seed);
    spec.sampling.temperature = static_cast<float>(args.number("temperature", spec.sampling.temperature));
    spec.sampling.topK = args.integer("top-k", spec.sampling.topK);
    spec.sampling.topP = static_cast<float>(args.number("top-p", spec.sampling.topP));
    spec.sampling.greedy = args.flag("greedy");
    spec.tonePattern = args.flag("tone");
    spec.freeHengpi = args.flag("free-hengpi");
    if (spec.candidates < 1) throw UsageError("--count must be at least 1");
    s.batch = args.integer("batch", 32);
    if (s.batch < 1) throw UsageError("--batch must be at least 1");
    // About two batches of sequences queued keeps the decoder busy while
    // finished rows are written.
    s.job.maxInFlight = std::max(2, 2 * s.batch / spec.candidates);
}

BatchSettings parseSettings(Args& args)
{
    BatchSettings s;
    s.job.resume = args.flag("resume");
    s.restart = args.flag("restart");
    s.quiet = args.flag("quiet");
    if (s.job.resume && s.restart) throw UsageError("--resume and --restart exclude each other");
    s.job.mappingOverrides = args.value("map");
    takeOutputOptions(args, s);
    takeGenerationOptions(args, s);
    s.journal = args.value("journal", BulkJournal::defaultPath().string());
    takePaths(args, s);   // last: flags above may give back positional arguments
    return s;
}

const char* stateWord(JobState state)
{
    switch (state) {
    case JobState::Running: return "interrupted";
    case JobState::Paused: return "paused";
    case JobState::Cancelled: return "cancelled";
    case JobState::Finished: return "finished";
    }
    return "unknown";
}

void checkPaths(const BatchSettings& s)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(s.job.input, ec))
        throw std::runtime_error("cannot read " + s.job.input.string()
                                 + (std::filesystem::exists(s.job.input, ec) ? ": not a regular file"
                                                                             : ": no such file"));
    if (std::filesystem::file_size(s.job.input, ec) == 0)
        throw std::runtime_error(s.job.input.string() + " is empty: a CSV file needs a header row "
                                                        "(e.g. id,关键词,字数) and data rows");
    if (s.job.input == s.job.output || std::filesystem::equivalent(s.job.input, s.job.output, ec))
        throw std::runtime_error("the output " + s.job.output.string()
                                 + " is the input file; choose another output name");
}

// The rule that keeps an interrupted job's output from being overwritten by
// accident: without --resume or --restart, an unfinished job is an error.
void checkUnfinishedJob(const BulkJournal& journal, const BatchSettings& s)
{
    if (s.job.resume || s.restart) return;
    const auto previous = journal.findJob(s.job.input, s.job.output);
    if (!previous || previous->state == JobState::Finished) return;
    const JobCounts counts = journal.counts(previous->id);
    std::string total = previous->totalRecords >= 0 ? std::to_string(previous->totalRecords) : "?";
    throw std::runtime_error("an unfinished job exists for " + s.job.input.string() + " -> "
                             + s.job.output.string() + " (" + stateWord(previous->state) + ", "
                             + std::to_string(counts.done()) + " of " + total
                             + " rows done); use --resume to continue or --restart to start over");
}

std::string modelNameOf(const std::filesystem::path& dir)
{
    const auto normal = dir.lexically_normal();
    const auto name = (normal.has_filename() ? normal : normal.parent_path()).filename().string();
    return name.empty() ? normal.string() : name;
}

void printStart(const BulkJob& job, const BatchSettings& s, const CoupletModel& model)
{
    const BulkProgress p = job.progress();
    std::cerr << "couplet batch: " << s.job.input.string() << " (" << encodingName(job.encoding()) << ", "
              << p.total << " rows) -> " << s.job.output.string() << '\n'
              << "  model: " << model.summary() << " on " << model.deviceName() << '\n';
    if (job.resumed())
        std::cerr << "  resuming job " << job.jobId() << ": " << p.done() << " rows already done\n";
}

void printSummary(const BulkJob& job, const BatchSettings& s, double seconds)
{
    const BulkProgress p = job.progress();
    std::fprintf(stderr,
                 "done: %llu rows: %llu ok, %llu invalid, %llu failed; %.1f s, %.2f rows/s -> %s\n",
                 static_cast<unsigned long long>(p.done()), static_cast<unsigned long long>(p.ok),
                 static_cast<unsigned long long>(p.invalid), static_cast<unsigned long long>(p.failed),
                 seconds, p.rowsPerSecond, s.job.output.string().c_str());
    if (p.total == 0) std::fprintf(stderr, "note: %s has a header but no data rows\n", s.job.input.string().c_str());
}

// Steps the job until it ends or Ctrl-C; returns false when interrupted.
bool drive(BulkJob& job, const BatchSettings& s)
{
    BatchProgress progress(stderr);
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    action.sa_flags = SA_RESETHAND;   // a second Ctrl-C ends the process at once
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    bool interrupted = false;
    while (job.step()) {
        if (g_interrupted) {
            job.cancel();
            interrupted = true;
            break;
        }
        if (!s.quiet) progress.update(job.progress());
    }
    progress.finish();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return !interrupted;
}

int runJob(BatchSettings& s, Args& args)
{
    BulkJournal journal(s.journal);
    checkUnfinishedJob(journal, s);
    auto model = loadModel(args);
    const std::string modelName = modelNameOf(args.value("model", CoupletModel::defaultModelDir().string()));
    args.finish();
    auto decoder = model->makeDecoder();
    SchedulerSettings settings;
    settings.maxBatch = s.batch;
    settings.maxWaitMs = 0;   // rows are queued ahead: no batching window needed
    Scheduler scheduler(*decoder, settings);
    SchedulerRowGenerator generator(scheduler, *model, modelName);
    BulkJob job(s.job, journal, generator);
    const auto started = std::chrono::steady_clock::now();
    try {
        job.start();
    } catch (const CsvError& e) {
        // Bad bytes under a detected encoding usually mean the guess was wrong.
        const bool detected = !s.job.encoding && !s.job.resume
            && std::string_view(e.what()).find(" text at byte offset") != std::string_view::npos;
        throw std::runtime_error(s.job.input.string() + ": " + e.what()
                                 + (detected ? " (the encoding was guessed from the file's first bytes; "
                                               "give --encoding if the guess is wrong)"
                                             : ""));
    }
    if (!s.quiet) printStart(job, s, *model);
    if (!drive(job, s)) {
        const BulkProgress p = job.progress();
        std::cerr << "\ninterrupted: " << p.done() << " of " << p.total
                  << " rows done; run the same command with --resume to continue\n";
        return kExitInterrupted;
    }
    printSummary(job, s, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    return 0;
}

} // namespace

int runBatch(Args& args)
{
    if (args.flag("help")) {
        printHelp();
        return 0;
    }
    BatchSettings settings = parseSettings(args);
    checkPaths(settings);
    return runJob(settings, args);
}

} // namespace couplet::cli
