#include "callback_queue.h"

namespace couplet {

void CallbackQueue::drain()
{
    if (m_draining) return;
    m_draining = true;
    // A throwing callback leaves the rest queued for the next drain().
    struct Reset {
        bool& flag;
        ~Reset() { flag = false; }
    } reset{m_draining};
    while (!m_pending.empty()) {
        auto callback = std::move(m_pending.front());
        m_pending.pop_front();
        callback();
    }
}

} // namespace couplet
