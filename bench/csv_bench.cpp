// Bulk CSV pipeline benchmark: rows per second and peak memory (VmHWM) of a
// BulkJob over a generated CSV of N rows, either with the real model
// (--model DIR: read, map, generate, journal, write) or with an instant
// generator (I/O only: read, map, journal, write) to show that memory does
// not grow with the input. One case per process, so that VmHWM is its own;
// bench/csv_bench.sh runs the sizes and collects the JSON.

#include "bulk_job.h"
#include "bulk_journal.h"
#include "couplet_model_generator.h"
#include "scheduler_row_generator.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>

using namespace couplet;

namespace {

// Finishes every row at the next poll with a fixed couplet: what is left to
// measure is the pipeline around the model.
class InstantRowGenerator : public RowGenerator {
public:
    void submit(const PromptRow&, std::function<void(RowResult)> done) override { m_pending.push_back(std::move(done)); }
    bool poll() override
    {
        RowResult r;
        r.couplet.upper = "春回大地千山秀";
        r.couplet.lower = "福满人间万户春";
        r.couplet.hengpi = "五福临门";
        r.couplet.score = -1.5;
        r.couplet.seed = 42;
        r.model = "instant";
        r.latencyMs = 0.01;
        const bool any = !m_pending.empty();
        while (!m_pending.empty()) {
            auto done = std::move(m_pending.front());
            m_pending.pop_front();
            done(r);
        }
        return any;
    }
    void cancelAll() override { m_pending.clear(); }

private:
    std::deque<std::function<void(RowResult)>> m_pending;
};

long kibFromStatus(const char* field)
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::string(field).size()));
    return -1;
}

void writeInput(const std::filesystem::path& path, long rows)
{
    static const char* const kKeywords[] = {"春风", "五福", "新年 吉祥", "龙年", "平安", "生意 兴隆", "山水", "花开"};
    std::ofstream out(path, std::ios::binary);
    out << "id,关键词,字数,备注\n";
    for (long i = 1; i <= rows; ++i)
        out << i << ',' << kKeywords[i % 8] << ',' << (i % 3 == 0 ? 5 : 7) << ",\"客户 " << i << ", 批次 A\"\n";
}

struct Options {
    long rows = 10000;
    std::filesystem::path model;   // empty: instant generator
    int batch = 32;
    int threads = 0;
    std::filesystem::path dir = "/tmp/couplet-csv-bench";
    std::filesystem::path json;
};

Options parse(int argc, char** argv)
{
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string name = argv[i], value = argv[i + 1];
        if (name == "--rows") o.rows = std::stol(value);
        else if (name == "--model") o.model = value;
        else if (name == "--batch") o.batch = std::stoi(value);
        else if (name == "--threads") o.threads = std::stoi(value);
        else if (name == "--dir") o.dir = value;
        else if (name == "--json") o.json = value;
        else throw std::invalid_argument("unknown option " + name);
    }
    return o;
}

nlohmann::json runCase(const Options& o)
{
    std::filesystem::create_directories(o.dir);
    const std::string tag = (o.model.empty() ? "io-" : "model-") + std::to_string(o.rows);
    BulkJobOptions job;
    job.input = o.dir / (tag + ".csv");
    job.output = o.dir / (tag + "-out.csv");
    job.defaults.sampling.seed = 1;
    job.maxInFlight = 2 * o.batch;
    writeInput(job.input, o.rows);
    std::filesystem::remove(o.dir / (tag + ".sqlite"));
    BulkJournal journal(o.dir / (tag + ".sqlite"));

    std::shared_ptr<const CoupletModel> model;
    std::unique_ptr<CoupletModelGenerator> couplets;
    std::unique_ptr<Decoder> decoder;
    std::unique_ptr<Scheduler> scheduler;
    std::unique_ptr<RowGenerator> generator;
    if (o.model.empty()) {
        generator = std::make_unique<InstantRowGenerator>();
    } else {
        DeviceOptions device;
        device.threads = o.threads;
        model = CoupletModel::load(o.model, device);
        decoder = model->makeDecoder();
        SchedulerSettings settings;
        settings.maxBatch = o.batch;
        settings.maxWaitMs = 0;
        scheduler = std::make_unique<Scheduler>(*decoder, settings);
        couplets = std::make_unique<CoupletModelGenerator>(model);
        generator = std::make_unique<SchedulerRowGenerator>(*scheduler, *couplets, o.model.filename().string());
    }
    const long baseline = kibFromStatus("VmHWM:");
    const auto t0 = std::chrono::steady_clock::now();
    BulkJob bulk(job, journal, *generator);
    bulk.start();
    bulk.run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const BulkProgress p = bulk.progress();
    return {{"case", o.model.empty() ? "io" : "model"}, {"rows", o.rows}, {"ok", p.ok},
            {"invalid", p.invalid}, {"failed", p.failed}, {"seconds", seconds},
            {"rows_per_second", static_cast<double>(o.rows) / seconds},
            {"vmhwm_before_kib", baseline}, {"vmhwm_kib", kibFromStatus("VmHWM:")},
            {"output_bytes", std::filesystem::file_size(job.output)},
            {"model", o.model.empty() ? "" : o.model.string()},
            {"device", model ? model->deviceName() : "-"}, {"batch", o.batch}};
}

} // namespace

int main(int argc, char** argv)
{
    try {
        const Options o = parse(argc, argv);
        const nlohmann::json result = runCase(o);
        std::printf("%-6s %9ld rows  %8.2f s  %10.1f rows/s  VmHWM %7.1f MiB (%.1f MiB before the job)\n",
                    result["case"].get<std::string>().c_str(), o.rows, result["seconds"].get<double>(),
                    result["rows_per_second"].get<double>(), result["vmhwm_kib"].get<long>() / 1024.0,
                    result["vmhwm_before_kib"].get<long>() / 1024.0);
        if (!o.json.empty()) std::ofstream(o.json, std::ios::app) << result.dump() << '\n';
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "csv_bench: %s\n", e.what());
        return 1;
    }
}
