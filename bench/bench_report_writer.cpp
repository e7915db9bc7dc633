#include "bench_report_writer.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace couplet::bench {
namespace {

// printf-style formatting into a std::string (std::format is missing from GCC 12).
template <typename... T>
std::string fmt(const char* pattern, T... values)
{
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, pattern, values...);
    return buffer;
}

std::ofstream openForWriting(const std::filesystem::path& path)
{
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    return out;
}

} // namespace

void BenchReportWriter::printTables(const BenchReport& report, std::ostream& out)
{
    // The device line names the CPU threads; the roofline's count is only known when it ran.
    out << "model: " << report.model << "\ndevice: " << report.device << (report.quick ? " (quick run)" : "") << "\n\n";
    printSweep(report, out);
    printComparisons(report, out);
    printFirstToken(report, out);
    printRerank(report, out);
    printRoofline(report, out);
}

void BenchReportWriter::printSweep(const BenchReport& report, std::ostream& out)
{
    if (report.sweep.empty()) return;
    out << "Batch size sweep (bulk keyword couplets, 7 characters; latency = submit to finished, all queued at start)\n";
    // outside: the share of a step spent outside the decoder (sampling, masks, bookkeeping).
    // allocs: operator new calls in the median step, whole step / inside the model.
    out << "batch  step ms  model ms  outside  couplets/s  tokens/s  speedup  p50 ms  p95 ms  occupancy  KV MiB  peak RSS MiB"
           "  allocs/step (model)\n";
    for (const auto& p : report.sweep)
        out << fmt("%5d  %7.2f  %8.2f  %6.0f%%  %10.1f  %8.0f  %6.2fx  %6.0f  %6.0f  %8.0f%%  %6.1f  %12.0f  %11.0f (%.0f)\n",
                   p.batchSize, p.stepMs, p.modelMs, p.stepMs > 0 ? 100 * (1 - p.modelMs / p.stepMs) : 0.0,
                   p.coupletsPerSecond, p.tokensPerSecond, p.speedup, p.latencyP50Ms, p.latencyP95Ms, 100 * p.occupancy,
                   p.kvCacheMiB, p.peakRssMiB, p.allocationsPerStep, p.modelAllocationsPerStep);
    out << '\n';
}

void BenchReportWriter::printComparisons(const BenchReport& report, std::ostream& out)
{
    if (report.comparisons.empty()) return;
    out << "Static (padded, whole batch waits for its longest) vs continuous batching, mixed lengths 5/7/9/free\n";
    out << "batch  requests  static c/s  static mean ms  static occ  cont. c/s  cont. mean ms  cont. occ  "
           "throughput x  latency x\n";
    for (const auto& c : report.comparisons)
        out << fmt("%5d  %8d  %10.1f  %14.0f  %9.0f%%  %9.1f  %13.0f  %8.0f%%  %11.2fx  %8.2fx\n", c.batchSize,
                   c.requests, c.staticCoupletsPerSecond, c.staticMeanLatencyMs, 100 * c.staticOccupancy,
                   c.continuousCoupletsPerSecond, c.continuousMeanLatencyMs, 100 * c.continuousOccupancy,
                   c.throughputRatio, c.latencyRatio);
    out << '\n';
}

void BenchReportWriter::printFirstToken(const BenchReport& report, std::ostream& out)
{
    if (report.firstToken.empty()) return;
    out << "Interactive time to first token: idle engine vs every slot busy with bulk work (target: loaded <= 2x idle)\n";
    out << "batch  samples  idle p50 ms  idle p95 ms  loaded p50 ms  loaded p95 ms  loaded step ms  ratio  preemptions\n";
    for (const auto& f : report.firstToken)
        out << fmt("%5d  %7d  %11.1f  %11.1f  %13.1f  %13.1f  %14.1f  %4.1fx  %11d\n", f.batchSize, f.samples,
                   f.idleP50Ms, f.idleP95Ms, f.loadedP50Ms, f.loadedP95Ms, f.loadedStepMs, f.ratio,
                   f.bulkPreemptions);
    out << '\n';
}

void BenchReportWriter::printRerank(const BenchReport& report, std::ostream& out)
{
    if (report.rerank.empty()) return;
    out << "One interactive couplet on an idle engine: reranked (the pool of candidates sampled in one batch) vs one "
           "sample (issue 35's budget: a request for three couplets, the same pool, at most 150 ms p95)\n";
    out << "samples  sampled  plain p50 ms  plain p95 ms  reranked p50 ms  reranked p95 ms  ratio\n";
    for (const auto& r : report.rerank)
        out << fmt("%7d  %7d  %12.1f  %12.1f  %15.1f  %15.1f  %4.2fx\n", r.samples, r.sampled, r.plainP50Ms,
                   r.plainP95Ms, r.rerankP50Ms, r.rerankP95Ms, r.ratio);
    out << '\n';
}

void BenchReportWriter::printRoofline(const BenchReport& report, std::ostream& out)
{
    const auto& r = report.roofline;
    if (r.matmuls.empty()) return;
    out << "Matrix-product roofline (" << r.device << ", " << r.dtype << ", " << r.threads << " threads)\n";
    out << "product                     m      k      n      ms/product  GFLOP/s  GFLOP/CPU-s\n";
    for (const auto& m : r.matmuls)
        out << fmt("%-24s %6lld %6lld %6lld  %12.3f  %7.1f  %11.1f\n", m.label.c_str(), m.m, m.k, m.n,
                   m.milliseconds, m.gflops, m.cpuGflops);
    out << fmt("peak %.1f GFLOP/s; decoding at batch %d: %.2f MFLOP/token, %.1f GFLOP/s over wall time (%.0f%% of "
               "peak), %.1f GFLOP/s inside the model (%.0f%%)\n",
               r.peakGflops, r.decodeBatchSize, r.flopsPerToken / 1e6, r.decodeGflops, 100 * r.fractionOfPeak,
               r.decodeModelGflops, 100 * r.modelFractionOfPeak);
    out << fmt("with the prompts prefilled as rows were admitted (%.0f tokens per step): %.1f GFLOP/s of model work "
               "over wall time (%.0f%% of peak)\n",
               r.promptTokensPerStep, r.workGflops, 100 * r.workFractionOfPeak);
    out << fmt("per CPU second (robust to other load on the machine): peak %.1f, decoding %.1f GFLOP/CPU-s (%.0f%%), "
               "with the prompts %.1f (%.0f%%)\n\n",
               r.peakCpuGflops, r.decodeCpuGflops, 100 * r.cpuFractionOfPeak, r.workCpuGflops, 100 * r.workCpuFractionOfPeak);
}

nlohmann::json BenchReportWriter::toJson(const BenchReport& report)
{
    nlohmann::json j;
    j["model"] = report.model;
    j["device"] = report.device;
    j["threads"] = report.threads;
    j["quick"] = report.quick;
    for (const auto& p : report.sweep)
        j["sweep"].push_back({{"batch_size", p.batchSize}, {"requests", p.requests}, {"failed", p.failed},
                              {"steps", p.steps}, {"seconds", p.seconds}, {"cpu_seconds", p.cpuSeconds}, {"step_ms", p.stepMs},
                              {"model_ms", p.modelMs}, {"couplets_per_s", p.coupletsPerSecond},
                              {"tokens_per_s", p.tokensPerSecond}, {"speedup", p.speedup},
                              {"latency_p50_ms", p.latencyP50Ms}, {"latency_p95_ms", p.latencyP95Ms},
                              {"occupancy", p.occupancy}, {"kv_cache_mib", p.kvCacheMiB},
                              {"peak_rss_mib", p.peakRssMiB}, {"gpu_memory_mib", p.gpuMemoryMiB},
                              {"mean_context", p.meanContext}, {"prefill_items", p.prefillItems},
                              {"prefill_tokens", p.prefillTokens}, {"prefill_mean_context", p.prefillMeanContext},
                              {"allocations_per_step", p.allocationsPerStep},
                              {"model_allocations_per_step", p.modelAllocationsPerStep}});
    for (const auto& c : report.comparisons)
        j["static_vs_continuous"].push_back(
            {{"batch_size", c.batchSize}, {"requests", c.requests}, {"static_seconds", c.staticSeconds},
             {"static_couplets_per_s", c.staticCoupletsPerSecond}, {"static_mean_latency_ms", c.staticMeanLatencyMs},
             {"static_occupancy", c.staticOccupancy}, {"continuous_seconds", c.continuousSeconds},
             {"continuous_couplets_per_s", c.continuousCoupletsPerSecond},
             {"continuous_mean_latency_ms", c.continuousMeanLatencyMs}, {"continuous_occupancy", c.continuousOccupancy},
             {"throughput_ratio", c.throughputRatio}, {"latency_ratio", c.latencyRatio}});
    for (const auto& f : report.firstToken)
        j["first_token"].push_back({{"batch_size", f.batchSize}, {"samples", f.samples}, {"idle_p50_ms", f.idleP50Ms},
                                    {"idle_p95_ms", f.idleP95Ms}, {"loaded_p50_ms", f.loadedP50Ms},
                                    {"loaded_p95_ms", f.loadedP95Ms}, {"loaded_step_ms", f.loadedStepMs},
                                    {"ratio", f.ratio}, {"bulk_preemptions", f.bulkPreemptions}});
    for (const auto& r : report.rerank)
        j["rerank"].push_back({{"samples", r.samples}, {"sampled", r.sampled}, {"plain_p50_ms", r.plainP50Ms},
                               {"plain_p95_ms", r.plainP95Ms}, {"rerank_p50_ms", r.rerankP50Ms},
                               {"rerank_p95_ms", r.rerankP95Ms}, {"ratio", r.ratio}});
    const auto& r = report.roofline;
    nlohmann::json roof = {{"device", r.device}, {"dtype", r.dtype}, {"threads", r.threads},
                           {"peak_gflops", r.peakGflops}, {"flops_per_token", r.flopsPerToken},
                           {"decode_batch_size", r.decodeBatchSize}, {"decode_gflops", r.decodeGflops},
                           {"decode_model_gflops", r.decodeModelGflops}, {"fraction_of_peak", r.fractionOfPeak},
                           {"model_fraction_of_peak", r.modelFractionOfPeak},
                           {"prompt_tokens_per_step", r.promptTokensPerStep}, {"work_gflops", r.workGflops},
                           {"work_fraction_of_peak", r.workFractionOfPeak}, {"work_cpu_gflops", r.workCpuGflops},
                           {"work_cpu_fraction_of_peak", r.workCpuFractionOfPeak},
                           {"peak_cpu_gflops", r.peakCpuGflops}, {"decode_cpu_gflops", r.decodeCpuGflops},
                           {"cpu_fraction_of_peak", r.cpuFractionOfPeak}};
    for (const auto& m : r.matmuls)
        roof["matmuls"].push_back({{"label", m.label}, {"m", m.m}, {"k", m.k}, {"n", m.n},
                                   {"ms", m.milliseconds}, {"gflops", m.gflops},
                                   {"cpu_gflops", m.cpuGflops}});
    j["roofline"] = roof;
    return j;
}

void BenchReportWriter::writeJson(const BenchReport& report, const std::filesystem::path& path)
{
    auto out = openForWriting(path);
    out << toJson(report).dump(2) << '\n';
}

void BenchReportWriter::writeCsv(const BenchReport& report, const std::filesystem::path& path)
{
    auto out = openForWriting(path);
    out << "batch_size,requests,steps,seconds,step_ms,model_ms,couplets_per_s,tokens_per_s,speedup,"
           "latency_p50_ms,latency_p95_ms,occupancy,kv_cache_mib,peak_rss_mib,gpu_memory_mib\n";
    for (const auto& p : report.sweep)
        out << fmt("%d,%d,%d,%.4f,%.4f,%.4f,%.3f,%.2f,%.4f,%.2f,%.2f,%.4f,%.2f,%.1f,%.1f\n", p.batchSize, p.requests,
                   p.steps, p.seconds, p.stepMs, p.modelMs, p.coupletsPerSecond, p.tokensPerSecond, p.speedup,
                   p.latencyP50Ms, p.latencyP95Ms, p.occupancy, p.kvCacheMiB, p.peakRssMiB, p.gpuMemoryMiB);
}

} // namespace couplet::bench
