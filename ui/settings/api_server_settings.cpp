#include "api_server_settings.h"

#include <QSettings>

namespace couplet {

QString ApiServerSettings::url() const { return QStringLiteral("http://127.0.0.1:%1/v1").arg(port); }

ApiServerSettings ApiServerSettings::load(const QSettings& settings)
{
    ApiServerSettings s;
    s.enabled = settings.value(QStringLiteral("api/enabled"), false).toBool();
    s.port = settings.value(QStringLiteral("api/port"), kDefaultPort).toInt();
    if (s.port < 1 || s.port > 65535)
        s.port = kDefaultPort;
    s.allInterfaces = settings.value(QStringLiteral("api/allInterfaces"), false).toBool();
    s.apiKey = settings.value(QStringLiteral("api/key")).toString();
    return s;
}

void ApiServerSettings::save(QSettings& settings) const
{
    settings.setValue(QStringLiteral("api/enabled"), enabled);
    settings.setValue(QStringLiteral("api/port"), port);
    settings.setValue(QStringLiteral("api/allInterfaces"), allInterfaces);
    settings.setValue(QStringLiteral("api/key"), apiKey);
}

} // namespace couplet
