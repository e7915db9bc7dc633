#include "throughput_meter.h"

#include <check.h>

using namespace couplet;
using namespace std::chrono_literals;

namespace {

const Clock::time_point kStart = Clock::time_point(std::chrono::seconds(500));

StepStats stepWith(int decoded, int prefilled, int running, int waiting)
{
    StepStats s;
    s.decoded = decoded;
    s.prefilled = prefilled;
    s.running = running;
    s.waiting = waiting;
    return s;
}

SequenceResult finished(double totalMs, double firstTokenMs, RequestStatus status = RequestStatus::Done)
{
    SequenceResult r;
    r.status = status;
    r.metrics.totalMs = totalMs;
    r.metrics.firstTokenMs = firstTokenMs;
    r.metrics.generatedTokens = 7;
    return r;
}

} // namespace

COUPLET_TEST(emptyMeterReportsZeros)
{
    ThroughputMeter meter;
    const auto s = meter.snapshot(kStart);
    CHECK_EQ(s.tokensPerSecond, 0.0);
    CHECK_EQ(s.latencyP95Ms, 0.0);
    CHECK_EQ(s.steps, 0);
}

COUPLET_TEST(ratesOverTheRecordedSpan)
{
    ThroughputMeter meter(10s);
    // 2 s of history: 20 steps 100 ms apart, each 8 decoded + 2 prefilled tokens.
    for (int i = 0; i <= 20; ++i) meter.recordStep(kStart + i * 100ms, stepWith(8, 2, 10, 3 + i), 20);
    for (int i = 0; i < 4; ++i) meter.recordRequest(kStart + 1s + i * 100ms, finished(100, 10));
    meter.recordRequest(kStart + 1500ms, finished(900, 0, RequestStatus::Cancelled));
    const auto s = meter.snapshot(kStart + 2s);
    CHECK_EQ(s.steps, 21);
    CHECK_NEAR(s.tokensPerSecond, 21 * 10 / 2.0, 1e-9);
    CHECK_NEAR(s.coupletsPerSecond, 4 / 2.0, 1e-9); // the cancelled one is no couplet
    CHECK_NEAR(s.batchOccupancy, 0.5, 1e-9);
    CHECK_EQ(s.queueDepth, 23);
    CHECK_EQ(s.requests, 5);
}

COUPLET_TEST(theFirstInstantCountsAsASecond)
{
    ThroughputMeter meter(10s);
    meter.recordStep(kStart, stepWith(0, 300, 32, 0), 32);
    const auto s = meter.snapshot(kStart + 1ms);
    CHECK_NEAR(s.tokensPerSecond, 300.0, 1e-9);
}

COUPLET_TEST(percentilesInterpolateBetweenRanks)
{
    ThroughputMeter meter(10s);
    for (int i = 1; i <= 20; ++i) meter.recordRequest(kStart, finished(i * 10.0, i * 1.0));
    SequenceResult noToken = finished(5000, 0, RequestStatus::Failed);
    noToken.metrics.generatedTokens = 0;
    meter.recordRequest(kStart, noToken);
    const auto s = meter.snapshot(kStart + 1s);
    // Latencies 10..200 plus 5000: p50 falls on the 11th of 21, p95 on the 20th.
    CHECK_NEAR(s.latencyP50Ms, 110, 1e-9);
    CHECK_NEAR(s.latencyP95Ms, 200, 1e-9);
    // First tokens 1..20 only (the failed one never had a token): ranks 9.5 and 18.05.
    CHECK_NEAR(s.firstTokenP50Ms, 10.5, 1e-9);
    CHECK_NEAR(s.firstTokenP95Ms, 19.05, 1e-9);
}

COUPLET_TEST(oldEventsLeaveTheWindow)
{
    ThroughputMeter meter(1s);
    meter.recordStep(kStart, stepWith(100, 0, 4, 9), 4);
    meter.recordRequest(kStart, finished(1000, 10));
    meter.recordStep(kStart + 5s, stepWith(10, 0, 1, 0), 4);
    meter.recordRequest(kStart + 5s, finished(50, 5));
    const auto s = meter.snapshot(kStart + 5500ms);
    CHECK_EQ(s.steps, 1);
    CHECK_NEAR(s.tokensPerSecond, 10.0, 1e-9); // over the full 1 s window
    CHECK_NEAR(s.latencyP95Ms, 50, 1e-9);
    CHECK_NEAR(s.batchOccupancy, 0.25, 1e-9);
    CHECK_EQ(s.queueDepth, 0);
    meter.clear();
    CHECK_EQ(meter.snapshot(kStart + 6s).steps, 0);
}
