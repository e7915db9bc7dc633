#pragma once

#include "candidate_group.h"
#include "couplet_text_stream.h"
#include "generation_spec.h"
#include "scheduler.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace couplet {

// How one sequence of a job ended.
struct SequenceOutcome {
    RequestStatus status = RequestStatus::Waiting;
    std::string text;            // 上联：…\n下联：…\n横批：…
    std::string finishReason;    // "stop" or "length" (max_tokens)
    std::string error;           // when status == Failed
    int promptTokens = 0;
    int completionTokens = 0;
    double firstTokenMs = 0;
};

// A piece of streamed text, or the end of a sequence (finished = true).
struct JobEvent {
    int index = 0;
    std::string text;
    bool finished = false;
    std::string finishReason;
};

// The choices of one HTTP request (prompts x n) as they are written: the
// engine thread delivers text and outcomes (ServingGroups), the request's
// HTTP thread waits for and takes them. Thread-safe.
// Each choice's output script, for `n` choices per spec in order.
std::vector<OutputScript> sequenceScripts(const std::vector<GenerationSpec>& specs, int n);

class ServingJob {
public:
    // scripts: each sequence's output script (empty: all Simplified).
    ServingJob(std::uint64_t id, int sequences, const std::vector<OutputScript>& scripts = {});

    std::uint64_t id() const { return m_id; }
    int sequences() const { return static_cast<int>(m_outcomes.size()); }

    // Engine thread: raw text of choice `index` as it is written.
    void deliver(int index, std::string_view raw);
    // Engine thread: choice `index` ended as `sequence`; `raw` is its text when
    // none of it was delivered (a couplet chosen after all candidates ended).
    void finish(int index, const CandidateSequence& sequence, std::string_view raw = {});

    // HTTP thread: waits at most `slice` for events or the end. Text that
    // arrives before `gatherUntil` does not wake the caller: it is handed over
    // together with what follows, so that a stream sends a few characters per
    // write instead of one write (and one thread wake-up) per decode step.
    void waitForEvents(std::chrono::milliseconds slice, std::chrono::steady_clock::time_point gatherUntil = {});
    // HTTP thread: waits at most `slice` for the end of every sequence;
    // streamed text does not wake the caller.
    void waitForEnd(std::chrono::milliseconds slice);
    std::vector<JobEvent> takeEvents();
    bool done() const;
    std::vector<SequenceOutcome> outcomes() const;

private:
    const std::uint64_t m_id;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<CoupletTextStream> m_streams;
    std::vector<SequenceOutcome> m_outcomes;
    std::vector<JobEvent> m_events;
    int m_remaining;
    bool m_wakeOnText = false; // the waiter wants to be woken by new text
};

} // namespace couplet
