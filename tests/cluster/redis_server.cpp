#include "redis_server.h"

#include "redis_connection.h"
#include "wait_for.h"

#include <arpa/inet.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace couplet::test {
namespace {

constexpr int kStartAttempts = 5;

// A port the kernel had free a moment ago; a race with another process
// taking it is caught by launch().
int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
        throw std::runtime_error("cannot bind a loopback socket");
    socklen_t length = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length);
    ::close(fd);
    return ntohs(addr.sin_port);
}

bool answers(int port)
{
    RedisConnection probe(RedisUrl::parse("redis://127.0.0.1:" + std::to_string(port)),
                          {std::chrono::milliseconds(500), std::chrono::milliseconds(1000)});
    try {
        const RedisValue pong = probe.command({"PING"});
        return pong.text == "PONG";
    } catch (const RedisUnavailable&) {
        return false;
    }
}

} // namespace

std::optional<std::filesystem::path> RedisServer::executable()
{
    if (const char* given = std::getenv("COUPLET_REDIS_SERVER")) return std::filesystem::path(given);
    const char* path = std::getenv("PATH");
    std::string rest = path ? path : "/usr/bin:/bin";
    for (std::size_t start = 0; start <= rest.size();) {
        const std::size_t end = std::min(rest.find(':', start), rest.size());
        const auto candidate = std::filesystem::path(rest.substr(start, end - start)) / "redis-server";
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return std::nullopt;
}

void RedisServer::skipUnlessInstalled()
{
    if (executable()) return;
    std::printf("SKIP: redis-server is not installed (Debian: apt-get install redis-server); "
                "the cluster tests need a real one\n");
    std::fflush(stdout);
    std::_Exit(77);
}

RedisServer::RedisServer(std::filesystem::path dir)
    : m_dir(std::move(dir))
{
    std::filesystem::create_directories(m_dir);
    for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
        m_port = freeLoopbackPort();
        if (launch()) return;
    }
    throw std::runtime_error("redis-server did not start; see " + (m_dir / "redis.log").string());
}

RedisServer::~RedisServer()
{
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }
}

bool RedisServer::launch()
{
    const auto exe = executable();
    if (!exe) throw std::runtime_error("redis-server is not installed");
    const std::vector<std::string> args{exe->string(), "--port", std::to_string(m_port), "--bind", "127.0.0.1",
                                        "--dir", m_dir.string(), "--appendonly", "yes", "--appendfsync",
                                        "everysec", "--save", "", "--daemonize", "no", "--logfile",
                                        (m_dir / "redis.log").string()};
    m_pid = ::fork();
    if (m_pid == 0) {
        std::vector<char*> argv;
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        std::_Exit(127);
    }
    bool exited = false;
    waitFor("redis-server to answer on port " + std::to_string(m_port), std::chrono::seconds(30), [&] {
        if (::waitpid(m_pid, nullptr, WNOHANG) == m_pid) exited = true;
        return exited || answers(m_port);
    });
    if (exited) m_pid = -1;
    return !exited;
}

void RedisServer::kill()
{
    if (m_pid <= 0) return;
    ::kill(m_pid, SIGKILL);
    ::waitpid(m_pid, nullptr, 0);
    m_pid = -1;
}

void RedisServer::start()
{
    if (m_pid > 0) return;
    if (!launch()) throw std::runtime_error("redis-server did not start again on port " + std::to_string(m_port));
}

} // namespace couplet::test
