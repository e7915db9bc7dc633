#include "request_queue.h"

#include <algorithm>
#include <cstdlib>

namespace couplet {

namespace {

// How far past the head takeBulk() looks for similar lengths, per slot to
// fill: wide enough to find matches, narrow enough to stay roughly FIFO.
constexpr int kBulkLookaheadPerSlot = 4;
constexpr int kMinBulkLookahead = 16;

} // namespace

std::deque<SequencePtr>& RequestQueue::queueFor(Priority priority)
{
    return priority == Priority::Interactive ? m_interactive : m_bulk;
}

void RequestQueue::push(SequencePtr sequence)
{
    auto& queue = queueFor(sequence->priority);
    queue.push_back(std::move(sequence));
}

void RequestQueue::pushFront(SequencePtr sequence)
{
    auto& queue = queueFor(sequence->priority);
    queue.push_front(std::move(sequence));
}

std::optional<Clock::time_point> RequestQueue::oldestSubmitted() const
{
    std::optional<Clock::time_point> oldest;
    for (const auto* queue : {&m_interactive, &m_bulk})
        for (const auto& s : *queue)
            if (!oldest || s->submitted < *oldest) oldest = s->submitted;
    return oldest;
}

std::vector<SequencePtr> RequestQueue::removeIf(
    const std::function<bool(const ScheduledSequence&)>& match)
{
    std::vector<SequencePtr> removed;
    for (auto* queue : {&m_interactive, &m_bulk}) {
        std::deque<SequencePtr> kept;
        for (auto& s : *queue) {
            if (match(*s))
                removed.push_back(std::move(s));
            else
                kept.push_back(std::move(s));
        }
        queue->swap(kept);
    }
    return removed;
}

std::optional<int> RequestQueue::interactiveHeadLength() const
{
    if (m_interactive.empty()) return std::nullopt;
    return m_interactive.front()->prefillLength();
}

std::vector<int> RequestQueue::interactiveLengths(int count) const
{
    std::vector<int> lengths;
    for (const auto& s : m_interactive) {
        if (static_cast<int>(lengths.size()) >= count) break;
        lengths.push_back(s->prefillLength());
    }
    return lengths;
}

SequencePtr RequestQueue::popInteractive()
{
    if (m_interactive.empty()) return nullptr;
    SequencePtr head = std::move(m_interactive.front());
    m_interactive.pop_front();
    return head;
}

std::vector<SequencePtr> RequestQueue::takeBulk(int maxCount, int tokenBudget, bool forceHead)
{
    std::vector<SequencePtr> taken;
    if (maxCount <= 0 || m_bulk.empty()) return taken;
    const int headLength = m_bulk.front()->prefillLength();
    if (headLength > tokenBudget && !forceHead) return taken;

    const int lookahead = std::max(kMinBulkLookahead, maxCount * kBulkLookaheadPerSlot);
    const int window = std::min(static_cast<int>(m_bulk.size()), lookahead);
    // Candidates after the head, nearest in length first; ties keep queue order.
    std::vector<int> order;
    for (int i = 1; i < window; ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return std::abs(m_bulk[a]->prefillLength() - headLength)
            < std::abs(m_bulk[b]->prefillLength() - headLength);
    });

    std::vector<int> chosen{0};
    int budget = tokenBudget - headLength;
    for (int i : order) {
        if (static_cast<int>(chosen.size()) >= maxCount) break;
        const int length = m_bulk[i]->prefillLength();
        if (length > budget) continue;
        chosen.push_back(i);
        budget -= length;
    }
    for (int i : chosen) taken.push_back(std::move(m_bulk[i]));
    m_bulk.erase(std::remove(m_bulk.begin(), m_bulk.end(), nullptr), m_bulk.end());
    return taken;
}

} // namespace couplet
