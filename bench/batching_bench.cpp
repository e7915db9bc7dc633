#include "batching_bench.h"

#include "allocation_counter.h"

#include "stats.h"

#include "percentile.h"
#include "workload.h"

#include "generate.h"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <sstream>

namespace couplet::bench {
namespace {

using Ms = std::chrono::duration<double, std::milli>;

SchedulerSettings settingsFor(int batchSize)
{
    SchedulerSettings s;
    s.maxBatch = batchSize;
    s.maxWaitMs = 0; // the workload is all queued up front: no window to wait for
    return s;
}

// The process's peak resident memory (VmHWM), in MiB; 0 where /proc is missing.
double peakRssMiB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
    return 0;
}

double mean(const std::vector<double>& v)
{
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

} // namespace

BatchingBench::BatchingBench(std::shared_ptr<const CoupletModel> model, Log log)
    : m_model(std::move(model)), m_decoder(m_model->makeDecoder()), m_timed(*m_decoder), m_log(std::move(log))
{
}

BatchingBench::~BatchingBench() = default;

void BatchingBench::say(const std::string& line) const
{
    if (m_log) m_log(line);
}

std::vector<SequenceRequest> BatchingBench::makeRequests(const std::vector<GenerationSpec>& specs, Priority priority,
                                                         RunResult& into) const
{
    std::vector<SequenceRequest> requests;
    requests.reserve(specs.size());
    for (const auto& spec : specs) {
        SequenceRequest r;
        r.priority = priority;
        r.policy = m_model->makePolicy(spec, 0);
        r.onFinish = [&into](const SequenceResult& result) {
            into.preemptions += result.metrics.preemptions;
            if (result.status == RequestStatus::Cancelled) return;
            if (result.status != RequestStatus::Done) {
                ++into.failed;
                return;
            }
            ++into.done;
            into.generatedTokens += result.metrics.generatedTokens;
            into.latencyMs.push_back(result.metrics.totalMs);
            into.firstTokenMs.push_back(result.metrics.firstTokenMs);
        };
        requests.push_back(std::move(r));
    }
    return requests;
}

// Everything queued at once; free slots are refilled at every step.
BatchingBench::RunResult BatchingBench::runContinuous(const std::vector<GenerationSpec>& specs, int batchSize)
{
    RunResult run;
    auto requests = makeRequests(specs, Priority::Bulk, run);
    Scheduler scheduler(m_timed, settingsFor(batchSize));
    m_timed.resetTotals();
    const auto start = Clock::now();
    const double cpuStart = processCpuSeconds();
    for (auto& r : requests) scheduler.submit(std::move(r));
    while (scheduler.hasWork()) {
        const std::uint64_t before = allocationsSoFar();
        const std::uint64_t modelBefore = m_timed.totals().allocations;
        run.stepMsSum += scheduler.step().stepMs;
        ++run.steps;
        run.stepAllocations.push_back(static_cast<double>(allocationsSoFar() - before));
        run.modelAllocations.push_back(static_cast<double>(m_timed.totals().allocations - modelBefore));
    }
    run.seconds = Ms(Clock::now() - start).count() / 1000.0;
    run.cpuSeconds = processCpuSeconds() - cpuStart;
    return run;
}

// The seeds' way: B requests at a time, decoded as B rows (finished ones
// padded) until the longest is done; only then the next B. Every request
// arrived at the start, so its latency includes the waves before its own.
BatchingBench::RunResult BatchingBench::runStatic(const std::vector<GenerationSpec>& specs, int batchSize)
{
    RunResult run;
    auto requests = makeRequests(specs, Priority::Bulk, run);
    Scheduler scheduler(m_timed, settingsFor(batchSize));
    m_timed.resetTotals();
    m_timed.setPadding(batchSize);
    const auto start = Clock::now();
    for (std::size_t first = 0; first < requests.size(); first += static_cast<std::size_t>(batchSize)) {
        const double offsetMs = Ms(Clock::now() - start).count();
        const std::size_t before = run.latencyMs.size();
        const auto last = std::min(requests.size(), first + static_cast<std::size_t>(batchSize));
        for (auto i = first; i < last; ++i) scheduler.submit(std::move(requests[i]));
        while (scheduler.hasWork()) {
            run.stepMsSum += scheduler.step().stepMs;
            ++run.steps;
        }
        for (auto i = before; i < run.latencyMs.size(); ++i) run.latencyMs[i] += offsetMs;
    }
    run.seconds = Ms(Clock::now() - start).count() / 1000.0;
    m_timed.setPadding(0);
    return run;
}

double BatchingBench::occupancy(int batchSize) const
{
    const auto& t = m_timed.totals();
    const double slots = static_cast<double>(t.decodeCalls) * batchSize;
    return slots > 0 ? static_cast<double>(t.decodedRows) / slots : 0;
}

double BatchingBench::kvCacheMiB() const
{
    return static_cast<double>(m_decoder->bytesPerRow()) * m_decoder->rowCapacity() / (1024.0 * 1024.0);
}

void BatchingBench::warmUp()
{
    runContinuous(Workload::uniform(*m_model, 8), 4);
}

BatchPoint BatchingBench::runBatchSize(int batchSize, int requests)
{
    const RunResult run = runContinuous(Workload::uniform(*m_model, requests), batchSize);
    const auto& t = m_timed.totals();
    BatchPoint p;
    p.batchSize = batchSize;
    p.requests = requests;
    p.failed = run.failed;
    p.steps = run.steps;
    p.seconds = run.seconds;
    p.cpuSeconds = run.cpuSeconds;
    p.stepMs = run.steps > 0 ? run.stepMsSum / run.steps : 0;
    p.modelMs = run.steps > 0 ? (t.decodeMs + t.prefillMs) / run.steps : 0;
    p.coupletsPerSecond = run.done / run.seconds;
    p.tokensPerSecond = static_cast<double>(run.generatedTokens) / run.seconds;
    p.latencyP50Ms = percentile(run.latencyMs, 50);
    p.latencyP95Ms = percentile(run.latencyMs, 95);
    p.occupancy = occupancy(batchSize);
    // The median step: the steady state, past the first steps' buffer growth.
    p.allocationsPerStep = percentile(run.stepAllocations, 50);
    p.modelAllocationsPerStep = percentile(run.modelAllocations, 50);
    p.meanContext = t.decodedRows > 0 ? static_cast<double>(t.contextSum) / static_cast<double>(t.decodedRows) : 0;
    p.prefillItems = t.prefillItems;
    p.prefillTokens = t.prefillTokens;
    p.prefillMeanContext = t.prefillTokens > 0
        ? static_cast<double>(t.prefillContextSum) / static_cast<double>(t.prefillTokens) : 0;
    p.kvCacheMiB = kvCacheMiB();
    p.peakRssMiB = peakRssMiB();
    if (m_monitor.hasGpu()) p.gpuMemoryMiB = m_monitor.sample().gpuMemoryUsedMiB;
    std::ostringstream line;
    line << "batch " << batchSize << ": " << run.done << " couplets in " << run.seconds << " s, " << p.stepMs
         << " ms/step";
    say(line.str());
    return p;
}

BatchingComparison BatchingBench::compare(int batchSize, int requests)
{
    const auto specs = Workload::mixed(*m_model, requests);
    BatchingComparison c;
    c.batchSize = batchSize;
    c.requests = requests;
    const RunResult fixed = runStatic(specs, batchSize);
    c.staticOccupancy = occupancy(batchSize);
    const RunResult continuous = runContinuous(specs, batchSize);
    c.continuousOccupancy = occupancy(batchSize);
    c.staticSeconds = fixed.seconds;
    c.staticCoupletsPerSecond = fixed.done / fixed.seconds;
    c.staticMeanLatencyMs = mean(fixed.latencyMs);
    c.continuousSeconds = continuous.seconds;
    c.continuousCoupletsPerSecond = continuous.done / continuous.seconds;
    c.continuousMeanLatencyMs = mean(continuous.latencyMs);
    c.throughputRatio = c.continuousCoupletsPerSecond / c.staticCoupletsPerSecond;
    c.latencyRatio = c.staticMeanLatencyMs / c.continuousMeanLatencyMs;
    say("static vs continuous at batch " + std::to_string(batchSize) + " done");
    return c;
}

RerankPoint BatchingBench::rerankLatency(int samples)
{
    RerankPoint p;
    p.samples = samples;
    std::vector<double> plain, reranked;
    for (int i = 0; i < samples; ++i) {
        GenerationSpec spec = Workload::interactive(*m_model, i);
        spec.candidates = 1;
        for (const bool rerank : {false, true}) {
            spec.rerank = rerank;
            const auto start = Clock::now();
            generateCouplets(*m_model, m_timed, spec);
            (rerank ? reranked : plain).push_back(Ms(Clock::now() - start).count());
            if (rerank) p.sampled = sampledCandidates(spec);
        }
    }
    p.plainP50Ms = percentile(plain, 50);
    p.plainP95Ms = percentile(plain, 95);
    p.rerankP50Ms = percentile(reranked, 50);
    p.rerankP95Ms = percentile(reranked, 95);
    p.ratio = p.plainP50Ms > 0 ? p.rerankP50Ms / p.plainP50Ms : 0;
    say("reranking latency done");
    return p;
}

FirstTokenPoint BatchingBench::firstToken(int batchSize, int samples)
{
    FirstTokenPoint p;
    p.batchSize = batchSize;
    p.samples = samples;
    RunResult idle;
    {
        Scheduler scheduler(m_timed, settingsFor(batchSize));
        for (int i = 0; i < samples; ++i) {
            auto requests = makeRequests({Workload::interactive(*m_model, i)}, Priority::Interactive, idle);
            scheduler.submit(std::move(requests.front()));
            runToCompletion(scheduler);
        }
    }
    const RunResult loaded = firstTokenUnderLoad(batchSize, samples, p);
    p.idleP50Ms = percentile(idle.firstTokenMs, 50);
    p.idleP95Ms = percentile(idle.firstTokenMs, 95);
    p.loadedP50Ms = percentile(loaded.firstTokenMs, 50);
    p.loadedP95Ms = percentile(loaded.firstTokenMs, 95);
    p.ratio = p.idleP50Ms > 0 ? p.loadedP50Ms / p.idleP50Ms : 0;
    say("time to first token at batch " + std::to_string(batchSize) + " done");
    return p;
}

// Bulk requests fill every slot with plenty queued behind; an interactive
// request is submitted between steps every few steps, only while all slots
// are busy with bulk work.
BatchingBench::RunResult BatchingBench::firstTokenUnderLoad(int batchSize, int samples, FirstTokenPoint& p)
{
    constexpr int kStepsBetween = 4;
    RunResult bulk;
    RunResult interactive;
    Scheduler scheduler(m_timed, settingsFor(batchSize));
    auto bulkRequests = makeRequests(Workload::uniform(*m_model, batchSize * 8), Priority::Bulk, bulk);
    for (auto& r : bulkRequests) scheduler.submit(std::move(r));
    int submitted = 0;
    int quiet = 0;
    int steps = 0;
    double stepMs = 0;
    while (interactive.done + interactive.failed < samples && scheduler.hasWork()) {
        const bool full = scheduler.runningCount() == batchSize && scheduler.waitingCount() > 0;
        if (submitted < samples && full && ++quiet > kStepsBetween) {
            auto r = makeRequests({Workload::interactive(*m_model, submitted)}, Priority::Interactive, interactive);
            scheduler.submit(std::move(r.front()));
            ++submitted;
            quiet = 0;
        }
        stepMs += scheduler.step().stepMs;
        ++steps;
    }
    scheduler.cancelAll();
    p.loadedStepMs = steps > 0 ? stepMs / steps : 0;
    p.bulkPreemptions = bulk.preemptions;
    p.samples = static_cast<int>(interactive.firstTokenMs.size());
    return interactive;
}

} // namespace couplet::bench
