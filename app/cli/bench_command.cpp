#include "commands.h"
#include "model_options.h"

#include "batching_bench.h"
#include "bench_report_writer.h"
#include "http_bench.h"
#include "roofline.h"

#include "couplet_model_generator.h"
#include "served_model.h"
#include "serving_engine.h"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace couplet::cli {
namespace {

struct BenchOptions {
    std::vector<int> batchSizes;
    std::vector<int> compareSizes;
    int requests = 0;          // 0 = max(4 x batch, 32) per batch size
    int firstTokenBatch = 32;
    int firstTokenSamples = 10;
    int squareSide = 1024;
    double matmulSeconds = 0.3;
    bool quick = false;
    std::string parts = "sweep,compare,ttft,rerank,roofline";
    std::string jsonPath;
    std::string csvPath;

    bool wants(const std::string& part) const { return ("," + parts + ",").find("," + part + ",") != std::string::npos; }
};

void printHelp()
{
    std::cout << "couplet bench [--batch-sizes 1,2,4,...,256] [--requests N] [--json FILE] [--csv FILE] [--quick]\n"
                 "Runs fixed couplet workloads through the scheduler and the model and prints throughput per\n"
                 "batch size, static vs continuous batching, interactive time to first token under load, the\n"
                 "time of one couplet with reranking against one without, and the machine's matrix-product roofline.\n"
                 "options:\n"
                 "  --batch-sizes LIST    batch sizes to sweep (default 1,2,4,8,16,32,64,128,256)\n"
                 "  --requests N          couplets per batch size (default max(4 x batch, 32))\n"
                 "  --compare-sizes LIST  batch sizes for static vs continuous (default 32,64)\n"
                 "  --ttft-batch N        slots for the time-to-first-token test (default 32)\n"
                 "  --samples N           interactive requests timed, idle and loaded (default 10; at least 20\n"
                 "                        each way for reranking)\n"
                 "  --json FILE           every result as one JSON document\n"
                 "  --csv FILE            the batch-size table as CSV\n"
                 "  --only LIST           run only these parts: sweep, compare, ttft, rerank, roofline\n"
                 "  --quick               a small smoke run (batch sizes 1,4, few requests)\n"
                 "couplet bench --http URL [--array-sizes 1,2,4,8,16,32] [--clients 1,8,32,64] [--no-compare]\n"
                 "  load a running 'couplet serve' at URL: prompt arrays from one client, then many clients\n"
                 "  sending single prompts (streamed), and the same load in-process on --model for the ratio\n"
                 "  --api-key KEY  --requests N (per point)  --max-batch N (in-process, default 32)  --json FILE\n"
              << modelOptionsHelp();
}

std::vector<int> parseSizes(const std::string& text, const std::string& option)
{
    std::vector<int> sizes;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        try {
            std::size_t used = 0;
            const int n = std::stoi(item, &used);
            if (used != item.size() || n < 1) throw std::invalid_argument(item);
            sizes.push_back(n);
        } catch (const std::exception&) {
            throw UsageError("--" + option + ": '" + item + "' is not a positive whole number");
        }
    }
    if (sizes.empty()) throw UsageError("--" + option + " needs at least one size");
    return sizes;
}

BenchOptions optionsFrom(Args& args)
{
    BenchOptions o;
    o.quick = args.flag("quick");
    o.batchSizes = parseSizes(args.value("batch-sizes", o.quick ? "1,4" : "1,2,4,8,16,32,64,128,256"), "batch-sizes");
    o.compareSizes = parseSizes(args.value("compare-sizes", o.quick ? "4" : "32,64"), "compare-sizes");
    o.requests = args.integer("requests", 0);
    o.firstTokenBatch = args.integer("ttft-batch", o.quick ? 4 : 32);
    o.firstTokenSamples = args.integer("samples", o.quick ? 3 : 10);
    if (o.requests < 0 || o.firstTokenBatch < 2 || o.firstTokenSamples < 1)
        throw UsageError("--requests must be >= 0, --ttft-batch >= 2 and --samples >= 1");
    if (o.quick) {
        o.squareSide = 256;
        o.matmulSeconds = 0.05;
    }
    o.parts = args.value("only", o.parts);
    o.jsonPath = args.value("json");
    o.csvPath = args.value("csv");
    return o;
}

int requestsFor(const BenchOptions& o, int batchSize)
{
    if (o.requests > 0) return std::max(o.requests, batchSize);
    return o.quick ? std::max(2 * batchSize, 8) : std::max(4 * batchSize, 32);
}

void runSweep(bench::BatchingBench& runner, const BenchOptions& o, bench::BenchReport& report)
{
    for (int b : o.batchSizes) report.sweep.push_back(runner.runBatchSize(b, requestsFor(o, b)));
    const auto one = std::find_if(report.sweep.begin(), report.sweep.end(),
                                  [](const bench::BatchPoint& p) { return p.batchSize == 1; });
    if (one == report.sweep.end()) return;
    const double base = one->coupletsPerSecond;
    for (auto& p : report.sweep) p.speedup = base > 0 ? p.coupletsPerSecond / base : 0;
}

// The largest batch the sweep will run (64 without a sweep).
int rooflineRows(const BenchOptions& o)
{
    const auto largest = std::max_element(o.batchSizes.begin(), o.batchSizes.end());
    return o.wants("sweep") && largest != o.batchSizes.end() ? *largest : 64;
}

// The products are timed before the sweep and again after it, and the faster
// measurement is the peak: on a shared machine a slow moment while the peak
// is taken would otherwise make decoding look closer to it than it is.
void runRoofline(const CoupletModel& model, const BenchOptions& o, bench::BenchReport& report,
                 const bench::RooflinePoint& before)
{
    // Rated at the largest batch swept (256 by default): where the products
    // are largest, and the batch the roofline target is set for.
    const auto largest = std::max_element(report.sweep.begin(), report.sweep.end(),
                                          [](const auto& a, const auto& b) { return a.batchSize < b.batchSize; });
    report.roofline = bench::Roofline::measure(model, rooflineRows(o), o.squareSide, o.matmulSeconds);
    if (before.peakGflops > report.roofline.peakGflops) report.roofline = before;
    if (largest != report.sweep.end()) bench::Roofline::rateDecoding(report.roofline, model, *largest);
}

// The same points in-process, on an engine like the server's, for the ratio.
void compareInProcess(std::vector<bench::HttpLoadPoint>& points, std::shared_ptr<const CoupletModel> model, int maxBatch)
{
    auto decoder = model->makeDecoder();
    ServingSettings settings;
    settings.scheduler.maxBatch = maxBatch;
    settings.scheduler.maxWaitMs = 5;
    ServingEngine engine(*decoder, ServedModel{ModelCard{}, std::make_shared<CoupletModelGenerator>(model)}, settings);
    const auto senders = bench::HttpBench::engineSenders(engine);
    for (auto& p : points) {
        const int perClient = p.shape == "array" ? p.requests : p.requests / p.size;
        bench::HttpBench::compare(p, p.shape == "array" ? bench::HttpBench::arrays(senders, p.size, perClient)
                                                        : bench::HttpBench::clients(senders, p.size, perClient));
    }
}

int runHttpBench(Args& args)
{
    const std::string url = args.value("http");
    const bool quick = args.flag("quick");
    const auto arraySizes = parseSizes(args.value("array-sizes", quick ? "1,4" : "1,2,4,8,16,32"), "array-sizes");
    const auto clientCounts = parseSizes(args.value("clients", quick ? "1,8" : "1,8,32,64"), "clients");
    const int requests = args.integer("requests", 0);
    const bool compare = !args.flag("no-compare");
    const int maxBatch = args.integer("max-batch", SchedulerSettings{}.maxBatch);
    const std::string apiKey = args.value("api-key"), jsonPath = args.value("json");
    auto model = compare ? loadModel(args) : nullptr;
    args.finish();
    const auto http = bench::HttpBench::httpSenders(url, apiKey);
    std::vector<bench::HttpLoadPoint> points;
    for (int n : arraySizes) {
        points.push_back(bench::HttpBench::arrays(http, n, requests > 0 ? requests : std::max(quick ? 2 : 4, 64 / n)));
        std::cerr << "array of " << n << ": " << points.back().coupletsPerSecond << " couplets/s" << std::endl;
        if (points.back().failed > 0) std::cerr << "  " << points.back().failed << " failed, first: " << points.back().firstError << std::endl;
    }
    for (int c : clientCounts) {
        points.push_back(bench::HttpBench::clients(http, c, requests > 0 ? requests : std::max(2, (quick ? 16 : 128) / c)));
        std::cerr << c << " clients: " << points.back().coupletsPerSecond << " couplets/s" << std::endl;
        if (points.back().failed > 0) std::cerr << "  " << points.back().failed << " failed, first: " << points.back().firstError << std::endl;
    }
    if (compare) compareInProcess(points, model, maxBatch);
    bench::HttpBench::printTable(points, url, std::cout);
    if (!jsonPath.empty()) bench::HttpBench::writeJson(points, url, jsonPath);
    return 0;
}

} // namespace

int runBench(Args& args)
{
    if (args.flag("help")) {
        printHelp();
        return 0;
    }
    if (args.has("http")) return runHttpBench(args);
    const BenchOptions o = optionsFrom(args);
    auto model = loadModel(args);
    args.finish();
    bench::BenchReport report;
    report.model = model->summary();
    report.device = model->deviceName();
    report.quick = o.quick;
    bench::BatchingBench runner(model, [](const std::string& line) { std::cerr << line << std::endl; });
    runner.warmUp();
    bench::RooflinePoint before;
    if (o.wants("roofline") && o.wants("sweep"))
        before = bench::Roofline::measure(*model, rooflineRows(o), o.squareSide, o.matmulSeconds);
    if (o.wants("sweep")) runSweep(runner, o, report);
    if (o.wants("compare"))
        for (int b : o.compareSizes) report.comparisons.push_back(runner.compare(b, requestsFor(o, b)));
    if (o.wants("ttft")) report.firstToken.push_back(runner.firstToken(o.firstTokenBatch, o.firstTokenSamples));
    if (o.wants("rerank")) report.rerank.push_back(runner.rerankLatency(std::max(o.firstTokenSamples, 20)));
    if (o.wants("roofline")) runRoofline(*model, o, report, before);
    report.threads = report.roofline.threads;
    bench::BenchReportWriter::printTables(report, std::cout);
    if (!o.jsonPath.empty()) bench::BenchReportWriter::writeJson(report, o.jsonPath);
    if (!o.csvPath.empty()) bench::BenchReportWriter::writeCsv(report, o.csvPath);
    return 0;
}

} // namespace couplet::cli
