#pragma once

// A real redis-server for a test: a free loopback port, a temporary folder,
// the append-only file on (fsync every second, Redis's default), and
// stopped when the object goes, whatever the test's outcome.

#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>

namespace couplet::test {

class RedisServer {
public:
    // $COUPLET_REDIS_SERVER, else redis-server on PATH; empty when there is none.
    static std::optional<std::filesystem::path> executable();
    // Exits the test program with 77 (CTest's SKIP_RETURN_CODE) and says why
    // when redis-server is not installed.
    static void skipUnlessInstalled();

    explicit RedisServer(std::filesystem::path dir);
    ~RedisServer();
    RedisServer(const RedisServer&) = delete;
    RedisServer& operator=(const RedisServer&) = delete;

    // SIGKILL, as a crash would: only what reached the append-only file stays.
    void kill();
    // Starts again on the same port and folder and waits until it answers.
    void start();

    int port() const { return m_port; }
    std::string url() const { return "redis://127.0.0.1:" + std::to_string(m_port); }

private:
    bool launch();   // false when the port was taken meanwhile

    std::filesystem::path m_dir;
    int m_port = 0;
    pid_t m_pid = -1;
};

} // namespace couplet::test
