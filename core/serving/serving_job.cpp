#include "serving_job.h"

#include <algorithm>
#include <utility>

namespace couplet {

std::vector<OutputScript> sequenceScripts(const std::vector<GenerationSpec>& specs, int n)
{
    std::vector<OutputScript> out;
    for (const auto& spec : specs) out.insert(out.end(), static_cast<std::size_t>(n), spec.script);
    return out;
}

ServingJob::ServingJob(std::uint64_t id, int sequences, const std::vector<OutputScript>& scripts)
    : m_id(id), m_outcomes(static_cast<std::size_t>(sequences)), m_remaining(sequences)
{
    m_streams.reserve(static_cast<std::size_t>(sequences));
    for (std::size_t i = 0; i < static_cast<std::size_t>(sequences); ++i)
        m_streams.emplace_back(i < scripts.size() ? scripts[i] : OutputScript::Simplified);
}

void ServingJob::deliver(int index, std::string_view raw)
{
    std::lock_guard lock(m_mutex);
    std::string text = m_streams[static_cast<std::size_t>(index)].push(raw);
    if (text.empty()) return;
    const bool first = m_events.empty();
    if (!first && m_events.back().index == index && !m_events.back().finished)
        m_events.back().text += text;
    else
        m_events.push_back({index, std::move(text), false, {}});
    // Only the first event wakes a waiter; the rest join it before it runs.
    if (first && m_wakeOnText) m_changed.notify_all();
}

void ServingJob::finish(int index, const CandidateSequence& sequence, std::string_view raw)
{
    std::lock_guard lock(m_mutex);
    const auto i = static_cast<std::size_t>(index);
    auto& o = m_outcomes[i];
    if (o.status != RequestStatus::Waiting) return;
    // `raw` (a chosen couplet sent whole), then the last line, which another
    // script holds back to convert it whole.
    std::string text = m_streams[i].push(raw);
    text += m_streams[i].finish();
    if (!text.empty()) {
        if (!m_events.empty() && m_events.back().index == index && !m_events.back().finished)
            m_events.back().text += text;
        else
            m_events.push_back({index, std::move(text), false, {}});
    }
    o.status = sequence.status;
    o.text = m_streams[i].text();
    o.finishReason = sequence.cutShort ? "length" : "stop";
    o.error = sequence.error;
    o.promptTokens = sequence.metrics.promptTokens;
    o.completionTokens = sequence.metrics.generatedTokens;
    o.firstTokenMs = sequence.metrics.firstTokenMs;
    m_events.push_back({index, {}, true, o.finishReason});
    --m_remaining;
    if (m_remaining == 0 || m_wakeOnText) m_changed.notify_all();
}

void ServingJob::waitForEvents(std::chrono::milliseconds slice, std::chrono::steady_clock::time_point gatherUntil)
{
    std::unique_lock lock(m_mutex);
    const auto deadline = std::chrono::steady_clock::now() + slice;
    if (gatherUntil > std::chrono::steady_clock::now()) {
        m_wakeOnText = false;
        m_changed.wait_until(lock, std::min(gatherUntil, deadline), [&] { return m_remaining == 0; });
    }
    m_wakeOnText = true;
    m_changed.wait_until(lock, deadline, [&] { return !m_events.empty() || m_remaining == 0; });
    m_wakeOnText = false;
}

void ServingJob::waitForEnd(std::chrono::milliseconds slice)
{
    std::unique_lock lock(m_mutex);
    m_wakeOnText = false;
    m_changed.wait_for(lock, slice, [&] { return m_remaining == 0; });
}

std::vector<JobEvent> ServingJob::takeEvents()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_events, {});
}

bool ServingJob::done() const
{
    std::lock_guard lock(m_mutex);
    return m_remaining == 0;
}

std::vector<SequenceOutcome> ServingJob::outcomes() const
{
    std::lock_guard lock(m_mutex);
    return m_outcomes;
}

} // namespace couplet
