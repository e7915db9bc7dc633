// RedisUrl parsing, and RedisConnection against a real redis-server: replies,
// pipelines, and an outage reported once however many retries it takes.

#include "check.h"
#include "redis_connection.h"
#include "redis_server.h"
#include "scratch_dir.h"

#include <atomic>
#include <thread>

using namespace couplet;
using couplet::test::RedisServer;

namespace {

std::string urlError(const std::string& text)
{
    try {
        RedisUrl::parse(text);
    } catch (const RedisUrlError& e) {
        return e.what();
    }
    return "";
}

} // namespace

COUPLET_TEST(parsesRedisUrls)
{
    const RedisUrl plain = RedisUrl::parse("redis://gpu-box");
    CHECK_EQ(plain.host, std::string("gpu-box"));
    CHECK_EQ(plain.port, 6379);
    CHECK_EQ(plain.db, 0);
    const RedisUrl full = RedisUrl::parse("redis://10.0.0.5:6380/3");
    CHECK_EQ(full.host, std::string("10.0.0.5"));
    CHECK_EQ(full.port, 6380);
    CHECK_EQ(full.db, 3);
    CHECK_EQ(full.toString(), std::string("redis://10.0.0.5:6380/3"));
    const RedisUrl v6 = RedisUrl::parse("redis://[::1]:7000");
    CHECK_EQ(v6.host, std::string("::1"));
    CHECK_EQ(v6.port, 7000);
    CHECK_EQ(v6.toString(), std::string("redis://[::1]:7000"));
}

COUPLET_TEST(badRedisUrlsSayWhatIsWrong)
{
    CHECK(urlError("localhost:6379").find("not a Redis URL") != std::string::npos);
    CHECK(urlError("redis://host:99999").find("port must be a number from 0 to 65535") != std::string::npos);
    CHECK(urlError("redis://host:").find("port after ':' is missing") != std::string::npos);
    CHECK(urlError("redis://:6379").find("host is missing") != std::string::npos);
    CHECK(urlError("redis://host/16").find("database must be a number from 0 to 15") != std::string::npos);
    CHECK(urlError("redis://user:pw@host").find("passwords") != std::string::npos);
}

COUPLET_TEST(commandsAndPipelinesReturnReplies)
{
    RedisServer::skipUnlessInstalled();
    const couplet::test::ScratchDir dir("redis-conn");
    RedisServer server(dir / "redis");
    RedisConnection redis(RedisUrl::parse(server.url() + "/2"));
    CHECK_EQ(redis.command({"SET", "k", "v"}).text, std::string("OK"));
    const auto replies = redis.pipeline({{"GET", "k"}, {"INCR", "n"}, {"GET", "missing"}, {"HGET", "k", "f"}});
    CHECK_EQ(replies[0].text, std::string("v"));
    CHECK_EQ(replies[1].integer, 1);
    CHECK(replies[2].isNil());
    CHECK(replies[3].isError());
    CHECK_EQ(replies[3].errorCode(), std::string("WRONGTYPE"));
    // /2 selected database 2: database 0 does not have the key.
    RedisConnection db0(RedisUrl::parse(server.url()));
    CHECK(db0.command({"GET", "k"}).isNil());
}

COUPLET_TEST(anOutageIsLoggedOnceAndTheCallGoesOnWhenRedisIsBack)
{
    RedisServer::skipUnlessInstalled();
    const couplet::test::ScratchDir dir("redis-outage");
    RedisServer server(dir / "redis");
    std::vector<std::string> lines;
    std::atomic<int> waits{0};
    RedisTimeouts timeouts;
    timeouts.firstBackoff = std::chrono::milliseconds(10);
    timeouts.maxBackoff = std::chrono::milliseconds(80);
    RedisConnection redis(RedisUrl::parse(server.url()), timeouts, [&](const std::string& l) { lines.push_back(l); });
    // The stop condition is asked between retries: a probe for "it is retrying".
    redis.setStopCondition([&] { return ++waits, false; });
    redis.retrying([](RedisConnection& r) { r.command({"SET", "before", "1"}); });
    server.kill();
    std::string value;
    std::thread caller([&] {
        value = redis.retrying([](RedisConnection& r) { return r.command({"GET", "before"}).text; });
    });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (waits.load() < 20 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(waits.load() >= 20);   // several attempts, at the 80 ms cap
    server.start();
    caller.join();
    CHECK_EQ(value, std::string("1"));   // the append-only file kept the write
    CHECK_EQ(lines.size(), std::size_t{2});
    CHECK(lines[0].find("redis unavailable") != std::string::npos);
    CHECK(lines[1].find("redis back") != std::string::npos);
    CHECK_EQ(redis.outages(), 1);
}
