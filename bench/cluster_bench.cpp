// Bulk rows over Redis Streams: rows/s with 1-3 real `couplet worker`
// processes against a local `couplet batch`, a simulated cluster of 1-16
// workers on the fake decoder with a fixed step time, and the queue's
// overhead per row. Starts its own redis-server (AOF on, as in production).
//
//   cluster_bench [--cli build/app/cli/couplet] [--model DIR] [--rows 200] [--batch 8]
//                 [--step-us 10000] [--tokens 8] [--sim-batch 16] [--sim-seconds 3]
//                 [--overhead-rows 20000] [--skip-real] [--json cluster_bench.json]

#include "child_process.h"
#include "cluster_bench_generator.h"
#include "cluster_worker.h"
#include "redis_row_generator.h"
#include "redis_server.h"
#include "scratch_dir.h"
#include "wait_for.h"

#include "bulk_job.h"
#include "couplet_model.h"

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>
#include <thread>

using namespace couplet;
using namespace std::chrono_literals;

namespace {

struct Options {
    std::filesystem::path cli;
    std::filesystem::path model = CoupletModel::defaultModelDir();
    int rows = 200;
    int batch = 8;
    int stepUs = 10000;
    int tokens = 8;
    int simBatch = 16;
    double simSeconds = 3;
    int overheadRows = 20000;
    bool skipReal = false;
    std::filesystem::path json = "cluster_bench.json";
};

Options parseOptions(int argc, char** argv)
{
    Options o;
    o.cli = std::filesystem::canonical("/proc/self/exe").parent_path().parent_path() / "app/cli/couplet";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto next = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
            return argv[++i];
        };
        if (a == "--cli") o.cli = next();
        else if (a == "--model") o.model = next();
        else if (a == "--rows") o.rows = std::stoi(next());
        else if (a == "--batch") o.batch = std::stoi(next());
        else if (a == "--step-us") o.stepUs = std::stoi(next());
        else if (a == "--tokens") o.tokens = std::stoi(next());
        else if (a == "--sim-batch") o.simBatch = std::stoi(next());
        else if (a == "--sim-seconds") o.simSeconds = std::stod(next());
        else if (a == "--overhead-rows") o.overheadRows = std::stoi(next());
        else if (a == "--skip-real") o.skipReal = true;
        else if (a == "--json") o.json = next();
        else throw std::invalid_argument("unknown option " + a + " (see the comment at the top of cluster_bench.cpp)");
    }
    return o;
}

void writeInput(const std::filesystem::path& path, int rows)
{
    static const char* const kKeywords[] = {"春风", "福", "新年", "龙凤", "山水", "平安"};
    std::ofstream out(path, std::ios::binary);
    out << "id,关键词,字数\n";
    for (int i = 1; i <= rows; ++i) out << 'r' << i << ',' << kKeywords[i % 6] << ",7\n";
}

// The rows/s of a `couplet batch` run, from its summary line.
double rowsPerSecondOf(const std::string& log)
{
    static const std::regex summary(R"(done: \d+ rows:.*, ([0-9.]+) rows/s)");
    std::smatch m;
    if (!std::regex_search(log, m, summary)) throw std::runtime_error("no summary in the batch log:\n" + log);
    return std::stod(m[1]);
}

double runProducer(const Options& o, const std::filesystem::path& dir, const std::string& tag,
                   const std::vector<std::string>& extra)
{
    std::vector<std::string> args{o.cli.string(), "batch", (dir / "in.csv").string(), "-o",
                                  (dir / (tag + ".csv")).string(), "--model", o.model.string(), "--journal",
                                  (dir / (tag + ".sqlite")).string(), "--seed", "1", "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    test::ChildProcess producer(args, dir / (tag + ".log"));
    if (producer.wait() != 0) throw std::runtime_error("couplet batch failed:\n" + producer.logText());
    return rowsPerSecondOf(producer.logText());
}

struct RealResult {
    double local = 0;
    std::vector<double> workers;   // rows/s with 1, 2, 3 workers
};

RealResult runReal(const Options& o, const std::filesystem::path& dir, test::RedisServer& redis)
{
    RealResult r;
    writeInput(dir / "in.csv", o.rows);
    r.local = runProducer(o, dir, "local", {"--device", "cpu", "--threads", "1", "--batch", std::to_string(o.batch)});
    RedisConnection client(RedisUrl::parse(redis.url()));
    for (int n = 1; n <= 3; ++n) {
        std::vector<std::unique_ptr<test::ChildProcess>> workers;
        for (int k = 0; k < n; ++k) {
            const std::string name = "bench-w" + std::to_string(k + 1);
            workers.push_back(std::make_unique<test::ChildProcess>(
                std::vector<std::string>{o.cli.string(), "worker", "--redis", redis.url(), "--name", name, "--model",
                                         o.model.string(), "--device", "cpu", "--threads", "1", "--max-batch",
                                         std::to_string(o.batch)},
                dir / (name + "-" + std::to_string(n) + ".log")));
        }
        test::waitFor(std::to_string(n) + " workers' heartbeats", 120s, [&] {
            for (int k = 1; k <= n; ++k)
                if (client.command({"EXISTS", "couplet:worker:bench-w" + std::to_string(k)}).integer == 0) return false;
            return true;
        });
        r.workers.push_back(runProducer(o, dir, "cluster" + std::to_string(n),
                                        {"--redis", redis.url(), "--window", std::to_string(4 * o.batch * n)}));
        for (auto& w : workers) w->signal(SIGTERM);
        for (auto& w : workers) w->wait();
    }
    return r;
}

struct SimSetup {
    std::chrono::microseconds step;
    int tokens = 8;
    int batch = 16;
};

// In-process workers, each a thread with its own connection, scheduler and
// fake decoder, as separate machines would be; the producer is this thread.
class SimCluster {
public:
    SimCluster(const RedisUrl& url, int workers, const SimSetup& setup)
    {
        for (int k = 0; k < workers; ++k) {
            WorkerOptions o;
            o.name = "sim-" + std::to_string(k + 1);
            o.modelId = "sim@0";
            o.device = "fake, fixed step";
            o.maxBatch = setup.batch;
            o.block = 50ms;
            o.jobsEvery = 50ms;
            auto& slot = m_slots.emplace_back(std::make_unique<Slot>());
            slot->redis = std::make_unique<RedisConnection>(url, RedisTimeouts{}, [](const std::string&) {});
            slot->generator = std::make_unique<bench::FixedStepRowGenerator>(setup.batch, setup.step, setup.tokens);
            slot->worker = std::make_unique<ClusterWorker>(*slot->redis, *slot->generator, o,
                                                           [](const std::string&) {});
        }
        for (auto& s : m_slots) m_threads.emplace_back([w = s->worker.get()] { w->run(); });
    }
    ~SimCluster()
    {
        for (auto& s : m_slots) s->worker->stop();
        for (auto& t : m_threads) t.join();
    }

private:
    struct Slot {
        std::unique_ptr<RedisConnection> redis;
        std::unique_ptr<bench::FixedStepRowGenerator> generator;
        std::unique_ptr<ClusterWorker> worker;
    };
    std::vector<std::unique_ptr<Slot>> m_slots;
    std::vector<std::thread> m_threads;
};

// Rows/s of one bulk job of `rows` rows: over Redis with `workers` simulated
// workers, or (workers == 0) with the same generator in this process.
double runSimJob(const std::filesystem::path& dir, const RedisUrl& url, int workers, int rows, const SimSetup& setup)
{
    const std::string tag = "sim-" + std::to_string(workers) + "-" + std::to_string(setup.step.count());
    writeInput(dir / (tag + ".csv"), rows);
    BulkJournal journal(dir / (tag + ".sqlite"));
    BulkJobOptions options;
    options.input = dir / (tag + ".csv");
    options.output = dir / (tag + "-out.csv");
    options.defaults.sampling.seed = 1;
    options.maxInFlight = 2 * setup.batch * std::max(1, workers);
    const auto timed = [&](BulkJob& job) {
        const auto start = std::chrono::steady_clock::now();
        job.run();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return rows / seconds;
    };
    if (workers == 0) {
        bench::FixedStepRowGenerator local(setup.batch, setup.step, setup.tokens);
        BulkJob job(options, journal, local);
        job.start();
        return timed(job);
    }
    RedisConnection redis(url, {}, [](const std::string&) {});
    redis.command({"FLUSHALL"}).check("FLUSHALL");
    SimCluster cluster(url, workers, setup);
    RedisRowGenerator generator(redis, "sim@0");
    BulkJob job(options, journal, generator);
    job.start();
    generator.attach(tag, journal, job.jobId(), {options.input.string(), options.output.string(), job.progress().total});
    const double rate = timed(job);
    generator.finish(job.progress());
    return rate;
}

struct SimPoint {
    int workers = 0;
    int rows = 0;
    double rowsPerSecond = 0;
    double efficiency = 0;
};

std::vector<SimPoint> runScaling(const Options& o, const std::filesystem::path& dir, const RedisUrl& url)
{
    const SimSetup setup{std::chrono::microseconds(o.stepUs), o.tokens, o.simBatch};
    const double ideal = o.simBatch / (o.tokens * o.stepUs * 1e-6);   // rows/s of one worker, no overhead
    std::vector<SimPoint> points;
    for (int n : {1, 2, 3, 4, 6, 8, 12, 16}) {
        const int rows = std::max(200, static_cast<int>(ideal * n * o.simSeconds));
        SimPoint p{n, rows, runSimJob(dir, url, n, rows, setup), 0};
        const double one = points.empty() ? p.rowsPerSecond : points.front().rowsPerSecond;
        p.efficiency = p.rowsPerSecond / (n * one);
        points.push_back(p);
        std::fprintf(stderr, "  simulated %2d workers: %6d rows, %8.1f rows/s\n", n, rows, p.rowsPerSecond);
    }
    return points;
}

// The queue's cost per row: the same zero-time generator run locally and
// through Redis with one worker; both pay the journal and the CSV.
struct Overhead {
    double localRowsPerSecond = 0;
    double redisRowsPerSecond = 0;
    double microsPerRow = 0;
};

Overhead measureOverhead(const std::filesystem::path& dir, const RedisUrl& url, int rows)
{
    const SimSetup instant{std::chrono::microseconds(0), 1, 64};
    Overhead o;
    o.localRowsPerSecond = runSimJob(dir, url, 0, rows, instant);
    o.redisRowsPerSecond = runSimJob(dir, url, 1, rows, instant);
    o.microsPerRow = 1e6 / o.redisRowsPerSecond - 1e6 / o.localRowsPerSecond;
    return o;
}

// The first worker count whose efficiency drops below 90 %; 0 if none does.
int bendOf(const std::vector<SimPoint>& points)
{
    for (const SimPoint& p : points)
        if (p.efficiency < 0.9) return p.workers;
    return 0;
}

void printReport(const Options& o, const RealResult& real, const std::vector<SimPoint>& sim, const Overhead& overhead)
{
    std::printf("cluster_bench (contended machine: 2 cores shared with other builds and a training run;\n"
                "figures are indicative, not a capacity plan)\n\n");
    if (!o.skipReal) {
        std::printf("real workers, model %s, %d rows, batch %d, 1 thread each\n", o.model.string().c_str(), o.rows,
                    o.batch);
        std::printf("  %-22s %10.1f rows/s\n", "local couplet batch", real.local);
        for (std::size_t i = 0; i < real.workers.size(); ++i)
            std::printf("  %zu worker%-14s %10.1f rows/s  (%.2fx local)\n", i + 1, i ? "s" : "", real.workers[i],
                        real.workers[i] / real.local);
        std::printf("  2 cores: more workers share the same CPU, so this shows the queue's overhead, not scaling\n\n");
    }
    std::printf("simulated workers: fake decoder, %d us per step, %d tokens per row, batch %d\n", o.stepUs, o.tokens,
                o.simBatch);
    std::printf("  %7s %8s %12s %12s %10s\n", "workers", "rows", "rows/s", "ideal", "efficiency");
    for (const SimPoint& p : sim)
        std::printf("  %7d %8d %12.1f %12.1f %9.0f%%\n", p.workers, p.rows, p.rowsPerSecond,
                    p.workers * sim.front().rowsPerSecond, 100 * p.efficiency);
    const int bend = bendOf(sim);
    std::printf("  efficiency at 16: %.0f%%; below 90%% from %s\n\n", 100 * sim.back().efficiency,
                bend ? (std::to_string(bend) + " workers").c_str() : "nowhere up to 16");
    std::printf("queue overhead per row: %.1f us (local %.0f rows/s, one worker over Redis %.0f rows/s, "
                "zero-time generator, journal and CSV in both)\n",
                overhead.microsPerRow, overhead.localRowsPerSecond, overhead.redisRowsPerSecond);
}

void writeJson(const Options& o, const RealResult& real, const std::vector<SimPoint>& sim, const Overhead& overhead)
{
    nlohmann::json points = nlohmann::json::array();
    for (const SimPoint& p : sim)
        points.push_back({{"workers", p.workers}, {"rows", p.rows}, {"rows_per_s", p.rowsPerSecond},
                          {"efficiency", p.efficiency}});
    const nlohmann::json j{
        {"machine", "2 cores, contended (other builds and a training run)"},
        {"real", o.skipReal ? nlohmann::json() : nlohmann::json{{"model", o.model.string()}, {"rows", o.rows},
                                                               {"batch", o.batch}, {"local_rows_per_s", real.local},
                                                               {"workers_rows_per_s", real.workers}}},
        {"simulated", {{"step_us", o.stepUs}, {"tokens", o.tokens}, {"batch", o.simBatch}, {"points", points},
                       {"efficiency_at_16", sim.back().efficiency}, {"bends_at_workers", bendOf(sim)}}},
        {"overhead", {{"us_per_row", overhead.microsPerRow}, {"local_rows_per_s", overhead.localRowsPerSecond},
                      {"redis_rows_per_s", overhead.redisRowsPerSecond}}}};
    std::ofstream(o.json) << j.dump(2) << '\n';
}

} // namespace

int main(int argc, char** argv)
{
    try {
        const Options o = parseOptions(argc, argv);
        if (!test::RedisServer::executable()) {
            std::fprintf(stderr, "cluster_bench: redis-server is not installed\n");
            return 1;
        }
        const test::ScratchDir scratch("cluster-bench");
        const std::filesystem::path dir = scratch / "";
        test::RedisServer redis(dir / "redis");
        const RedisUrl url = RedisUrl::parse(redis.url());
        RealResult real;
        if (!o.skipReal) real = runReal(o, dir, redis);
        const Overhead overhead = measureOverhead(dir, url, o.overheadRows);
        const auto sim = runScaling(o, dir, url);
        printReport(o, real, sim, overhead);
        writeJson(o, real, sim, overhead);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cluster_bench: %s\n", e.what());
        return 1;
    }
}
