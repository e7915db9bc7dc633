#include "redis_url.h"

#include <charconv>

namespace couplet {
namespace {

constexpr std::string_view kScheme = "redis://";

int parseNumber(std::string_view digits, int max, std::string_view text, const char* what)
{
    int value = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || value < 0 || value > max)
        throw RedisUrlError(std::string(text) + ": " + what + " must be a number from 0 to "
                            + std::to_string(max) + ", got '" + std::string(digits) + "'");
    return value;
}

} // namespace

RedisUrl RedisUrl::parse(std::string_view text)
{
    if (text.substr(0, kScheme.size()) != kScheme)
        throw RedisUrlError("'" + std::string(text) + "' is not a Redis URL: write redis://HOST:PORT[/DB]");
    std::string_view rest = text.substr(kScheme.size());
    if (rest.find('@') != std::string_view::npos)
        throw RedisUrlError(std::string(text) + ": passwords in the URL are not supported");
    RedisUrl url;
    if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
        const std::string_view db = rest.substr(slash + 1);
        if (!db.empty()) url.db = parseNumber(db, 15, text, "the database");
        rest = rest.substr(0, slash);
    }
    std::string_view port;
    if (!rest.empty() && rest.front() == '[') {
        const auto close = rest.find(']');
        if (close == std::string_view::npos) throw RedisUrlError(std::string(text) + ": unclosed '[' in the host");
        url.host = std::string(rest.substr(1, close - 1));
        rest = rest.substr(close + 1);
        if (!rest.empty() && rest.front() != ':')
            throw RedisUrlError(std::string(text) + ": expected ':PORT' after the host");
        if (!rest.empty()) port = rest.substr(1);
    } else if (const auto colon = rest.find(':'); colon != std::string_view::npos) {
        url.host = std::string(rest.substr(0, colon));
        port = rest.substr(colon + 1);
        if (port.empty()) throw RedisUrlError(std::string(text) + ": the port after ':' is missing");
    } else {
        url.host = std::string(rest);
    }
    if (url.host.empty()) throw RedisUrlError(std::string(text) + ": the host is missing");
    if (!port.empty()) url.port = parseNumber(port, 65535, text, "the port");
    if (url.port == 0) throw RedisUrlError(std::string(text) + ": the port must not be 0");
    return url;
}

std::string RedisUrl::toString() const
{
    std::string out(kScheme);
    if (host.find(':') != std::string::npos)
        out.append("[").append(host).append("]");
    else
        out.append(host);
    out.append(":").append(std::to_string(port));
    if (db != 0) out.append("/").append(std::to_string(db));
    return out;
}

} // namespace couplet
