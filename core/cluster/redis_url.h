#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace couplet {

// A Redis address that cannot be used, with the reason.
class RedisUrlError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// redis://HOST[:PORT][/DB]; PORT defaults to 6379, DB to 0. HOST may be a
// name, an IPv4 address or a bracketed IPv6 address ([::1]).
struct RedisUrl {
    std::string host = "127.0.0.1";
    int port = 6379;
    int db = 0;

    // Throws RedisUrlError naming what is wrong, e.g. "redis://x:99999: port
    // must be 1 to 65535".
    static RedisUrl parse(std::string_view text);
    std::string toString() const;
};

} // namespace couplet
