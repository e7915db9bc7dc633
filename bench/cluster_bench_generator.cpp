#include "cluster_bench_generator.h"

#include "fake_policy.h"

namespace couplet::bench {
namespace {

constexpr std::uint64_t kJob = 1;

} // namespace

FixedStepRowGenerator::FixedStepRowGenerator(int maxBatch, std::chrono::microseconds step, int tokens)
    : m_fake(97, 64)
    , m_decoder(m_fake, step)
    , m_tokens(tokens)
{
    SchedulerSettings settings;
    settings.maxBatch = maxBatch;
    settings.maxWaitMs = 0;
    m_scheduler = std::make_unique<Scheduler>(m_decoder, settings);
}

FixedStepRowGenerator::~FixedStepRowGenerator()
{
    cancelAll();
}

void FixedStepRowGenerator::submit(const PromptRow& row, std::function<void(RowResult)> done)
{
    SequenceRequest request;
    request.priority = Priority::Bulk;
    request.jobId = kJob;
    const int first = 3 + static_cast<int>(row.recordNumber % 50);
    request.policy = std::make_unique<test::FakePolicy>(std::vector<int>{1, first, first + 1}, m_tokens);
    const std::uint64_t seed = row.recordNumber;
    request.onFinish = [this, done = std::move(done), seed](const SequenceResult& r) {
        RowResult result;
        result.status = r.status == RequestStatus::Done ? RowStatus::Ok : RowStatus::Failed;
        result.error = r.error;
        result.couplet.upper = "春风送暖";
        result.couplet.lower = "瑞雪迎春";
        result.couplet.hengpi = "万象更新";
        result.couplet.score = r.logProb;
        result.couplet.seed = seed;
        result.model = "fake";
        result.latencyMs = r.metrics.totalMs;
        m_finished.emplace_back(done, std::move(result));
    };
    m_scheduler->submit(std::move(request));
}

bool FixedStepRowGenerator::poll()
{
    bool any = false;
    if (m_scheduler->hasWork()) {
        m_scheduler->step();
        any = true;
    }
    while (!m_finished.empty()) {
        auto [done, result] = std::move(m_finished.front());
        m_finished.pop_front();
        done(std::move(result));
    }
    return any;
}

void FixedStepRowGenerator::cancelAll()
{
    m_finished.clear();
    m_scheduler->cancelJob(kJob);
    m_finished.clear();
}

} // namespace couplet::bench
