#pragma once

#include "scheduled_sequence.h"

#include <deque>
#include <functional>
#include <optional>
#include <vector>

namespace couplet {

// Waiting sequences in two FIFO queues, interactive and bulk. Bulk sequences
// are taken in groups of similar prefill length so one prefill batch carries
// little padding, but the head of the bulk queue always goes first, so no
// request waits for ever behind shorter ones.
class RequestQueue {
public:
    // Appends to the back of the sequence's priority queue.
    void push(SequencePtr sequence);
    // Puts a preempted sequence back at the head of its queue.
    void pushFront(SequencePtr sequence);

    bool empty() const { return m_interactive.empty() && m_bulk.empty(); }
    int size() const { return static_cast<int>(m_interactive.size() + m_bulk.size()); }
    int interactiveCount() const { return static_cast<int>(m_interactive.size()); }
    int bulkCount() const { return static_cast<int>(m_bulk.size()); }
    std::optional<Clock::time_point> oldestSubmitted() const;

    // Removes and returns every waiting sequence for which `match` is true.
    std::vector<SequencePtr> removeIf(const std::function<bool(const ScheduledSequence&)>& match);

    // Prefill length of the interactive head, or nullopt when none waits.
    std::optional<int> interactiveHeadLength() const;
    // Prefill lengths of the first `count` waiting interactive sequences.
    std::vector<int> interactiveLengths(int count) const;
    SequencePtr popInteractive();

    // Takes up to `maxCount` bulk sequences whose prefill lengths sum to at most
    // `tokenBudget`; the head is taken even over budget when `forceHead` is set.
    // The others come from the first few waiting ones, nearest in length to the
    // head first.
    std::vector<SequencePtr> takeBulk(int maxCount, int tokenBudget, bool forceHead);

private:
    std::deque<SequencePtr>& queueFor(Priority priority);

    std::deque<SequencePtr> m_interactive;
    std::deque<SequencePtr> m_bulk;
};

} // namespace couplet
