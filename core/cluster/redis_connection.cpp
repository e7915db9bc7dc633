#include "redis_connection.h"

#include <hiredis/hiredis.h>

#include <cstdio>
#include <thread>

namespace couplet {
namespace {

timeval toTimeval(std::chrono::milliseconds ms)
{
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
    return tv;
}

RedisValue convert(const redisReply& r)
{
    RedisValue v;
    switch (r.type) {
    case REDIS_REPLY_STATUS: v.type = RedisValue::Type::Status; break;
    case REDIS_REPLY_ERROR: v.type = RedisValue::Type::Error; break;
    case REDIS_REPLY_INTEGER: v.type = RedisValue::Type::Integer; v.integer = r.integer; return v;
    case REDIS_REPLY_NIL: return v;
    case REDIS_REPLY_ARRAY:
        v.type = RedisValue::Type::Array;
        v.elements.reserve(r.elements);
        for (std::size_t i = 0; i < r.elements; ++i) v.elements.push_back(convert(*r.element[i]));
        return v;
    default: v.type = RedisValue::Type::String; break;
    }
    if (r.str) v.text.assign(r.str, r.len);
    return v;
}

void freeReply(void* reply)
{
    if (reply) freeReplyObject(reply);
}

} // namespace

RedisConnection::RedisConnection(RedisUrl url, RedisTimeouts timeouts, Logger log)
    : m_url(std::move(url))
    , m_timeouts(timeouts)
    , m_log(log ? std::move(log) : Logger([](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); }))
    , m_context(nullptr, redisFree)
{
}

RedisConnection::~RedisConnection() = default;

void RedisConnection::drop()
{
    m_context.reset();
}

void RedisConnection::fail(const std::string& what)
{
    drop();
    throw RedisUnavailable(m_url.toString() + ": " + what);
}

void RedisConnection::connect()
{
    if (m_context) return;
    redisContext* c = redisConnectWithTimeout(m_url.host.c_str(), m_url.port, toTimeval(m_timeouts.connect));
    if (!c) throw RedisUnavailable(m_url.toString() + ": out of memory for the connection");
    m_context.reset(c);
    if (c->err) fail(c->errstr);
    if (redisSetTimeout(c, toTimeval(m_timeouts.command)) != REDIS_OK) fail("cannot set the command timeout");
    if (m_url.db != 0) {
        const RedisValue ok = command({"SELECT", std::to_string(m_url.db)});
        if (ok.isError()) fail("SELECT " + std::to_string(m_url.db) + ": " + ok.text);
    }
}

RedisValue RedisConnection::readReply()
{
    void* raw = nullptr;
    if (redisGetReply(m_context.get(), &raw) != REDIS_OK || !raw)
        fail(m_context->errstr[0] ? m_context->errstr : "connection lost");
    const std::unique_ptr<void, void (*)(void*)> owner(raw, freeReply);
    RedisValue value = convert(*static_cast<redisReply*>(raw));
    // A restarted server answers LOADING until its append-only file is read:
    // for callers that is the outage going on.
    if (value.isError() && value.errorCode() == "LOADING") fail(value.text);
    return value;
}

std::vector<RedisValue> RedisConnection::pipeline(const std::vector<RedisCommand>& commands)
{
    connect();
    for (const RedisCommand& args : commands) {
        std::vector<const char*> argv;
        std::vector<std::size_t> lengths;
        for (const auto& a : args) {
            argv.push_back(a.data());
            lengths.push_back(a.size());
        }
        if (redisAppendCommandArgv(m_context.get(), static_cast<int>(argv.size()), argv.data(), lengths.data())
            != REDIS_OK)
            fail(m_context->errstr);
    }
    std::vector<RedisValue> replies;
    replies.reserve(commands.size());
    for (std::size_t i = 0; i < commands.size(); ++i) replies.push_back(readReply());
    return replies;
}

RedisValue RedisConnection::command(const RedisCommand& args)
{
    return std::move(pipeline({args}).front());
}

void RedisConnection::waitBeforeRetry(const std::string& error)
{
    drop();
    if (!m_inOutage) {
        m_inOutage = true;
        ++m_outages;
        m_attempts = 0;
        m_backoff = m_timeouts.firstBackoff;
        m_outageStart = std::chrono::steady_clock::now();
        m_log("redis unavailable: " + error + "; retrying every " + std::to_string(m_backoff.count())
              + " to " + std::to_string(m_timeouts.maxBackoff.count()) + " ms until it is back");
    }
    ++m_attempts;
    // Sleeps in slices so that a stop request is seen within 50 ms.
    const auto until = std::chrono::steady_clock::now() + m_backoff;
    do {
        if (m_stop && m_stop()) throw RedisStopped("stopped while waiting for " + m_url.toString());
        std::this_thread::sleep_for(std::min(std::chrono::milliseconds(50), m_backoff));
    } while (std::chrono::steady_clock::now() < until);
    m_backoff = std::min(m_backoff * 2, m_timeouts.maxBackoff);
}

void RedisConnection::endOutage()
{
    if (!m_inOutage) return;
    m_inOutage = false;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_outageStart).count();
    char line[160];
    std::snprintf(line, sizeof line, "redis back at %s after %.1f s (%d attempts)", m_url.toString().c_str(),
                  seconds, m_attempts + 1);
    m_log(line);
}

} // namespace couplet
