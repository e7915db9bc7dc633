#include "connection_probe.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cstdlib>

namespace couplet {
namespace {

bool addressMatches(const sockaddr_storage& a, int port, const std::string* host)
{
    char text[INET6_ADDRSTRLEN] = {};
    int actualPort = -1;
    if (a.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
        actualPort = ntohs(v4.sin_port);
        inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
    } else if (a.ss_family == AF_INET6) {
        const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
        actualPort = ntohs(v6.sin6_port);
        inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    }
    return actualPort == port && (host == nullptr || *host == text);
}

bool isConnection(int fd, int localPort, const std::string& remoteAddress, int remotePort)
{
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) return false;
    sockaddr_storage local {}, peer {};
    socklen_t localLength = sizeof local, peerLength = sizeof peer;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &localLength) != 0) return false;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peerLength) != 0) return false;
    return addressMatches(local, localPort, nullptr) && addressMatches(peer, remotePort, &remoteAddress);
}

} // namespace

ConnectionProbe::ConnectionProbe(int localPort, const std::string& remoteAddress, int remotePort)
{
    DIR* dir = opendir("/proc/self/fd");
    if (dir == nullptr) return;
    const int own = dirfd(dir);
    while (const dirent* entry = readdir(dir)) {
        char* end = nullptr;
        const long fd = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != '\0' || fd == own) continue;
        if (isConnection(static_cast<int>(fd), localPort, remoteAddress, remotePort)) {
            m_fd = static_cast<int>(fd);
            break;
        }
    }
    closedir(dir);
}

bool ConnectionProbe::peerClosed() const
{
    if (m_fd < 0) return false;
    pollfd p{m_fd, static_cast<short>(POLLIN | POLLRDHUP), 0};
    if (poll(&p, 1, 0) <= 0) return false;
    if (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) return true;
    // Readable: either the next pipelined request, or the end of the stream.
    char byte = 0;
    return recv(m_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

} // namespace couplet

namespace couplet {

void ConnectionProbe::sendImmediately() const
{
    const int on = 1;
    if (m_fd >= 0) setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

} // namespace couplet
