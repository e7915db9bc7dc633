#include "local_api_server.h"

#include "api_bridge.h"
#include "api_server.h"
#include "engine_controller.h"
#include "serving_metrics.h"

#include <QCoreApplication>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace couplet {
namespace {

// Why the port cannot be had, as the kernel says it (ApiServer only says that it cannot).
int bindErrno(const QString& host, int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return errno;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(quint16(port));
    ::inet_pton(AF_INET, host.toLatin1().constData(), &address.sin_addr);
    const int error = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 ? 0 : errno;
    ::close(fd);
    return error;
}

QString listenProblem(const ApiServerSettings& s, const QString& what)
{
    const int error = bindErrno(s.host(), s.port);
    if (error == EADDRINUSE)
        return QCoreApplication::translate("LocalApiServer",
                                           "Port %1 is already in use by another program: choose another port "
                                           "and turn the server on again.").arg(s.port);
    if (error == EACCES)
        return QCoreApplication::translate("LocalApiServer",
                                           "Port %1 needs administrator rights: choose a port above 1024.").arg(s.port);
    const QString reason = error != 0 ? QString::fromLocal8Bit(std::strerror(error)) : what;
    return QCoreApplication::translate("LocalApiServer", "The server cannot listen on %1:%2: %3")
        .arg(s.host()).arg(s.port).arg(reason);
}

} // namespace

LocalApiServer::LocalApiServer(EngineController& engine)
    : m_metrics(std::make_shared<ServingMetrics>()),
      m_bridge(std::make_unique<ApiBridge>(engine, m_metrics, kMaxOutstanding))
{
}

LocalApiServer::~LocalApiServer() { stop(); }

QString LocalApiServer::start(const ApiServerSettings& settings)
{
    stop();
    ServerOptions options;
    options.host = settings.host().toStdString();
    options.port = settings.port;
    options.apiKey = settings.apiKey.toStdString();
    options.threads = kThreads;
    options.keepAliveSeconds = kKeepAliveSeconds;
    auto server = std::make_unique<ApiServer>(*m_bridge, *m_metrics, options);
    try {
        server->start();
    } catch (const std::exception& e) {
        return listenProblem(settings, QString::fromStdString(e.what()));
    }
    m_server = std::move(server);
    return {};
}

void LocalApiServer::stop() { m_server.reset(); }

int LocalApiServer::port() const { return m_server ? m_server->port() : 0; }

void LocalApiServer::updateGauges(const EngineStats& stats)
{
    m_bridge->setGauges({stats.throughput.queueDepth, stats.running, stats.maxBatch, 0});
}

} // namespace couplet
