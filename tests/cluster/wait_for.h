#pragma once

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

namespace couplet::test {

// Polls `condition` every 20 ms until it holds; throws naming `what` after
// `timeout`. Waiting on a condition, never a fixed sleep, is what keeps these
// multi-process tests stable on a loaded machine.
inline void waitFor(const std::string& what, std::chrono::milliseconds timeout, const std::function<bool()>& condition)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error("timed out after " + std::to_string(timeout.count() / 1000) + " s waiting for "
                                     + what);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

} // namespace couplet::test
