#include "throughput_meter.h"

#include "percentile.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace couplet {

ThroughputMeter::ThroughputMeter(std::chrono::milliseconds window) : m_window(window)
{
}

void ThroughputMeter::recordStep(Clock::time_point at, const StepStats& stats, int maxBatch)
{
    if (!m_first) m_first = at;
    StepEvent e;
    e.at = at;
    // Each decoded sequence gained a token, and each prefilled one its first.
    e.tokens = stats.decoded + stats.prefilled;
    e.occupancy = maxBatch > 0 ? std::min(1.0, double(stats.running) / maxBatch) : 0.0;
    e.waiting = stats.waiting;
    m_steps.push_back(e);
    prune(at);
}

void ThroughputMeter::recordRequest(Clock::time_point at, const SequenceResult& result)
{
    if (!m_first) m_first = at;
    RequestEvent e;
    e.at = at;
    e.done = result.status == RequestStatus::Done;
    e.gotToken = result.metrics.generatedTokens > 0;
    e.totalMs = result.metrics.totalMs;
    e.firstTokenMs = result.metrics.firstTokenMs;
    m_requests.push_back(e);
    prune(at);
}

void ThroughputMeter::prune(Clock::time_point now)
{
    const auto oldest = now - m_window;
    while (!m_steps.empty() && m_steps.front().at < oldest) m_steps.pop_front();
    while (!m_requests.empty() && m_requests.front().at < oldest) m_requests.pop_front();
}

double ThroughputMeter::spanSeconds(Clock::time_point now) const
{
    if (!m_first) return 0;
    // At least a second (or the window): a snapshot taken just after the
    // first step would otherwise divide its tokens by microseconds and show a
    // spike of millions of tokens/s that flattens the charts.
    const Clock::duration floor = std::min<Clock::duration>(m_window, std::chrono::seconds(1));
    const auto span = std::min<Clock::duration>(m_window, std::max<Clock::duration>(floor, now - *m_first));
    return std::chrono::duration<double>(span).count();
}

ThroughputSnapshot ThroughputMeter::snapshot(Clock::time_point now) const
{
    ThroughputSnapshot s;
    const auto oldest = now - m_window;
    long tokens = 0;
    double occupancy = 0;
    for (const auto& e : m_steps) {
        if (e.at < oldest || e.at > now) continue;
        tokens += e.tokens;
        occupancy += e.occupancy;
        s.queueDepth = e.waiting;
        ++s.steps;
    }
    std::vector<double> totals, firstTokens;
    int done = 0;
    for (const auto& e : m_requests) {
        if (e.at < oldest || e.at > now) continue;
        ++s.requests;
        if (e.done) ++done;
        totals.push_back(e.totalMs);
        if (e.gotToken) firstTokens.push_back(e.firstTokenMs);
    }
    const double seconds = spanSeconds(now);
    if (seconds > 0) {
        s.tokensPerSecond = tokens / seconds;
        s.coupletsPerSecond = done / seconds;
    }
    if (s.steps > 0) s.batchOccupancy = occupancy / s.steps;
    s.latencyP50Ms = percentile(totals, 50);
    s.latencyP95Ms = percentile(totals, 95);
    s.firstTokenP50Ms = percentile(firstTokens, 50);
    s.firstTokenP95Ms = percentile(firstTokens, 95);
    return s;
}

void ThroughputMeter::clear()
{
    m_steps.clear();
    m_requests.clear();
    m_first.reset();
}

} // namespace couplet
