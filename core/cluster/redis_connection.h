#pragma once

#include "redis_url.h"
#include "redis_value.h"

#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

struct redisContext;

namespace couplet {

// Redis cannot be reached (refused, timed out, dropped, still loading its
// data after a restart). The command may or may not have run.
class RedisUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// retrying() gave up because its stop condition came true.
class RedisStopped : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RedisTimeouts {
    std::chrono::milliseconds connect{2000};
    std::chrono::milliseconds command{5000};   // longer than any BLOCK the callers use
    std::chrono::milliseconds firstBackoff{50};
    std::chrono::milliseconds maxBackoff{2000};
};

using RedisCommand = std::vector<std::string>;

// One connection to Redis (hiredis, blocking, RESP2), owned: the context is
// freed with the object. Commands throw RedisUnavailable on a connection
// fault and return error replies as values (see RedisValue::check()).
//
// retrying(fn) is what the workers and the producer use: it runs fn, and on a
// fault reconnects with a backoff that doubles from firstBackoff up to
// maxBackoff and runs fn again. An outage is logged once when it begins and
// once when it ends, not once per attempt.
class RedisConnection {
public:
    using Logger = std::function<void(const std::string&)>;

    // Does not connect yet; the first command does.
    explicit RedisConnection(RedisUrl url, RedisTimeouts timeouts = {}, Logger log = {});
    ~RedisConnection();
    RedisConnection(const RedisConnection&) = delete;
    RedisConnection& operator=(const RedisConnection&) = delete;

    RedisValue command(const RedisCommand& args);
    // Sends all, then reads all replies: one round trip.
    std::vector<RedisValue> pipeline(const std::vector<RedisCommand>& commands);

    // A true stop() ends retrying with RedisStopped (checked between attempts).
    void setStopCondition(std::function<bool()> stop) { m_stop = std::move(stop); }

    template <typename F>
    auto retrying(F&& fn) -> decltype(fn(*this))
    {
        for (;;) {
            try {
                if constexpr (std::is_void_v<decltype(fn(*this))>) {
                    fn(*this);
                    endOutage();
                    return;
                } else {
                    auto result = fn(*this);
                    endOutage();
                    return result;
                }
            } catch (const RedisUnavailable& e) {
                waitBeforeRetry(e.what());
            }
        }
    }

    const RedisUrl& url() const { return m_url; }
    bool connected() const { return m_context != nullptr; }
    int outages() const { return m_outages; }   // outages seen so far (for tests and status)

private:
    void connect();
    void drop();
    [[noreturn]] void fail(const std::string& what);
    RedisValue readReply();
    void waitBeforeRetry(const std::string& error);
    void endOutage();

    RedisUrl m_url;
    RedisTimeouts m_timeouts;
    Logger m_log;
    std::function<bool()> m_stop;
    std::unique_ptr<redisContext, void (*)(redisContext*)> m_context;
    bool m_inOutage = false;
    int m_outages = 0;
    int m_attempts = 0;
    std::chrono::milliseconds m_backoff{0};
    std::chrono::steady_clock::time_point m_outageStart;
};

} // namespace couplet
