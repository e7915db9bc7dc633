#pragma once

#include "histogram.h"
#include "system_monitor.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace couplet {

// What the engine reports at a scrape: its queue and slots.
struct EngineGauges {
    int waiting = 0;          // sequences queued
    int running = 0;          // sequences in slots
    int slots = 0;            // effective maximum batch
    long long steps = 0;
};

// The server's counters and histograms, shared by the HTTP threads and the
// engine thread, and their Prometheus text exposition for GET /metrics.
class ServingMetrics {
public:
    ServingMetrics();

    // outcome: "ok", "invalid", "unauthorized", "too_large", "queue_full",
    // "timeout", "cancelled", "failed", "not_found".
    void countRequest(const std::string& endpoint, const std::string& outcome);
    void addTokens(long long promptTokens, long long generatedTokens);
    void observeFirstToken(double seconds);
    void observeRequest(double seconds);
    // Mean seconds per finished request so far (for Retry-After), 0 before the first.
    double meanRequestSeconds() const;
    long long requests(const std::string& endpoint, const std::string& outcome) const;

    std::string exposition(const EngineGauges& engine, const SystemMonitor::Sample& system) const;

private:
    mutable std::mutex m_mutex;
    std::map<std::pair<std::string, std::string>, long long> m_requests;
    long long m_promptTokens = 0;
    long long m_generatedTokens = 0;
    Histogram m_firstToken;
    Histogram m_requestTime;
};

} // namespace couplet
