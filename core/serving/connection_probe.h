#pragma once

#include <string>

namespace couplet {

// Tells whether the client of an HTTP request has gone away while its
// response is being prepared. cpp-httplib 0.11 does not hand the connection's
// socket to a handler, so the probe finds it among this process's sockets by
// the request's local port and peer address. Only valid while the handler
// (or its content provider) runs: the socket is closed after that.
class ConnectionProbe {
public:
    ConnectionProbe(int localPort, const std::string& remoteAddress, int remotePort);

    bool found() const { return m_fd >= 0; }
    // True once the peer has closed or reset the connection.
    bool peerClosed() const;
    // Sends small writes at once (TCP_NODELAY): a stream is many small events.
    void sendImmediately() const;

private:
    int m_fd = -1;
};

} // namespace couplet
