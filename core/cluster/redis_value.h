#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace couplet {

// An error reply from Redis (e.g. "NOGROUP No such key ..."): the command was
// wrong for the data, the connection is fine.
class RedisError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A reply, copied out of hiredis's reply tree so that it outlives the call.
struct RedisValue {
    enum class Type { Nil, Status, Error, Integer, String, Array };

    Type type = Type::Nil;
    std::string text;                  // Status, Error, String
    std::int64_t integer = 0;
    std::vector<RedisValue> elements;  // Array

    bool isNil() const { return type == Type::Nil; }
    bool isError() const { return type == Type::Error; }
    // Throws RedisError with `context` and the server's message on an error reply.
    const RedisValue& check(const std::string& context) const
    {
        if (isError()) throw RedisError(context + ": " + text);
        return *this;
    }
    // The error reply's first word, e.g. "NOGROUP"; "" when not an error.
    std::string errorCode() const { return isError() ? text.substr(0, text.find(' ')) : std::string(); }
};

} // namespace couplet
