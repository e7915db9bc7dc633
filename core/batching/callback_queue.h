#pragma once

#include <deque>
#include <functional>

namespace couplet {

// Callbacks the scheduler owes its callers, run only once its own state is
// consistent again, so a callback may call back into the scheduler. drain()
// called from inside a callback returns at once; the outer drain() runs what
// the inner call posted, in order.
class CallbackQueue {
public:
    void post(std::function<void()> callback) { m_pending.push_back(std::move(callback)); }
    void drain();
    bool draining() const { return m_draining; }

private:
    std::deque<std::function<void()>> m_pending;
    bool m_draining = false;
};

} // namespace couplet
