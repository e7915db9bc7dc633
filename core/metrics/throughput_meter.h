#pragma once

#include "scheduler.h"

#include <chrono>
#include <deque>
#include <optional>

namespace couplet {

// What the engine has done lately, over the meter's window.
struct ThroughputSnapshot {
    double tokensPerSecond = 0;    // generated tokens
    double coupletsPerSecond = 0;  // requests finished Done
    double latencyP50Ms = 0;       // submit -> finished
    double latencyP95Ms = 0;
    double firstTokenP50Ms = 0;    // submit -> first token
    double firstTokenP95Ms = 0;
    double batchOccupancy = 0;     // mean running / maxBatch over the window's steps, 0..1
    int queueDepth = 0;            // waiting after the latest step
    int steps = 0;                 // steps in the window
    int requests = 0;              // requests finished in the window, any outcome
};

// A sliding window over per-step and per-request events. Time points are
// passed in, so the meter is exact under test and knows no clock.
class ThroughputMeter {
public:
    explicit ThroughputMeter(std::chrono::milliseconds window = std::chrono::seconds(10));

    // `maxBatch`: the slots the step had, for occupancy.
    void recordStep(Clock::time_point at, const StepStats& stats, int maxBatch);
    void recordRequest(Clock::time_point at, const SequenceResult& result);
    ThroughputSnapshot snapshot(Clock::time_point now) const;
    void clear();

    std::chrono::milliseconds window() const { return m_window; }

private:
    struct StepEvent {
        Clock::time_point at;
        int tokens = 0;
        double occupancy = 0;
        int waiting = 0;
    };
    struct RequestEvent {
        Clock::time_point at;
        bool done = false;
        bool gotToken = false;
        double totalMs = 0;
        double firstTokenMs = 0;
    };

    void prune(Clock::time_point now);
    double spanSeconds(Clock::time_point now) const;

    std::chrono::milliseconds m_window;
    std::deque<StepEvent> m_steps;
    std::deque<RequestEvent> m_requests;
    // When recording began: rates over a shorter history than the window are
    // divided by that history, not by the whole window.
    std::optional<Clock::time_point> m_first;
};

} // namespace couplet
