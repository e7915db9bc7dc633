// Candidates sampled per requested couplet (K, issue 35): the latency of an
// interactive request for 3 couplets on an idle machine (3K sampled in one
// batch, reranked, the best 3 kept) and the rows per second of bulk rows of
// one couplet each (K sampled and reranked per row, rows batched together),
// against today's unreranked single sample. Prints a table; --json writes it.
//
//   candidates_bench [--model DIR] [--factors 1,4,16,32,64] [--samples 20]
//                    [--rows 32] [--batch 32] [--threads N] [--json out.json]

#include "couplet_model.h"
#include "couplet_scorer.h"
#include "generate.h"
#include "percentile.h"
#include "scheduler.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace couplet;

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    std::string model;
    std::vector<int> factors{1, 4, 16, 32, 64};
    int samples = 20, rows = 32, batch = 32, threads = 0;
    std::string json;
};

const char* const kPrompts[] = {"五福", "开业 大吉", "平安", "新春 吉祥", "生意 兴隆", "团圆", "医德 健康", "桃李 芬芳"};

GenerationSpec promptSpec(int i)
{
    GenerationSpec spec;
    spec.keywords = kPrompts[static_cast<std::size_t>(i) % std::size(kPrompts)];
    spec.sampling.seed = 1000 + static_cast<std::uint64_t>(i);
    spec.year = 2027;
    return spec;
}

// Samples `k` candidates for each spec on one scheduler of `batch` rows,
// then reranks each spec's and keeps its spec.candidates best (k = 1: the
// model's one sample, not reranked).
void writeAll(const CoupletModel& model, Decoder& decoder, const std::vector<GenerationSpec>& specs, int k, int batch)
{
    SchedulerSettings settings;
    settings.maxBatch = batch;
    settings.maxWaitMs = 0;
    Scheduler scheduler(decoder, settings);
    std::vector<std::vector<Couplet>> out(specs.size());
    for (std::size_t s = 0; s < specs.size(); ++s) {
        const int sampled = k * std::max(1, specs[s].candidates);
        out[s].resize(static_cast<std::size_t>(sampled));
        for (int i = 0; i < sampled; ++i) {
            SequenceRequest r;
            r.policy = model.makePolicy(specs[s], i);
            r.onFinish = [&out, s, i](const SequenceResult& result) {
                if (result.status == RequestStatus::Done) out[s][static_cast<std::size_t>(i)] = CoupletModel::coupletOf(*result.policy);
            };
            scheduler.submit(std::move(r));
        }
    }
    runToCompletion(scheduler);
    if (k == 1) return;
    for (std::size_t s = 0; s < specs.size(); ++s) {
        model.rerank(specs[s], out[s]);
        CoupletScorer::keepBest(out[s], static_cast<std::size_t>(specs[s].candidates));
    }
}

std::vector<int> parseList(const std::string& text)
{
    std::vector<int> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) out.push_back(std::stoi(item));
    return out;
}

Options parse(int argc, char** argv)
{
    Options o;
    o.model = CoupletModel::defaultModelDir().string();
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string name = argv[i], value = argv[i + 1];
        if (name == "--model") o.model = value;
        else if (name == "--factors") o.factors = parseList(value);
        else if (name == "--samples") o.samples = std::stoi(value);
        else if (name == "--rows") o.rows = std::stoi(value);
        else if (name == "--batch") o.batch = std::stoi(value);
        else if (name == "--threads") o.threads = std::stoi(value);
        else if (name == "--json") o.json = value;
        else throw std::invalid_argument("unknown option " + name);
    }
    return o;
}

} // namespace

int main(int argc, char** argv)
{
    try {
        const Options o = parse(argc, argv);
        DeviceOptions device;
        device.threads = o.threads;
        const auto model = CoupletModel::load(o.model, device);
        auto decoder = model->makeDecoder();
        std::cout << model->deviceName() << "\n K  interactive 3 couplets: sampled  p50 ms  p95 ms   bulk: rows/s  "
                     "ms/row  x single sample\n";
        nlohmann::json report = nlohmann::json::array();
        double singleMsPerRow = 0;
        for (int k : o.factors) {
            std::vector<double> latency;
            for (int i = 0; i < o.samples; ++i) {
                GenerationSpec spec = promptSpec(i);
                spec.candidates = 3;
                const auto start = Clock::now();
                writeAll(*model, *decoder, {spec}, k, 3 * k);
                latency.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
            }
            std::vector<GenerationSpec> rows;
            for (int i = 0; i < o.rows; ++i) rows.push_back(promptSpec(i));
            const auto start = Clock::now();
            writeAll(*model, *decoder, rows, k, o.batch);
            const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
            const double msPerRow = 1000 * seconds / o.rows;
            if (k == 1) singleMsPerRow = msPerRow;
            const double p50 = percentile(latency, 50), p95 = percentile(latency, 95);
            std::cout << (k < 10 ? " " : "") << k << "  " << 3 * k << "  " << p50 << "  " << p95 << "   " << o.rows / seconds
                      << "  " << msPerRow << "  " << (singleMsPerRow > 0 ? msPerRow / singleMsPerRow : 0) << "\n";
            report.push_back({{"k", k}, {"interactive_sampled", 3 * k}, {"interactive_p50_ms", p50}, {"interactive_p95_ms", p95},
                              {"bulk_rows_per_s", o.rows / seconds}, {"bulk_ms_per_row", msPerRow}});
        }
        if (!o.json.empty()) std::ofstream(o.json) << report.dump(2) << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "candidates_bench: " << e.what() << "\n";
        return 1;
    }
}
