#pragma once

#include <QString>

class QSettings;

namespace couplet {

// Settings > Local API server, as saved with the app's other settings.
struct ApiServerSettings {
    static constexpr int kDefaultPort = 8000;

    bool enabled = false;        // off until the user turns it on
    int port = kDefaultPort;
    bool allInterfaces = false;  // false: loopback only (127.0.0.1)
    QString apiKey;              // "" = no key asked

    QString host() const { return allInterfaces ? QStringLiteral("0.0.0.0") : QStringLiteral("127.0.0.1"); }
    // What a client on this computer uses: http://127.0.0.1:PORT/v1
    QString url() const;

    static ApiServerSettings load(const QSettings& settings);
    void save(QSettings& settings) const;
    bool operator==(const ApiServerSettings&) const = default;
};

} // namespace couplet
