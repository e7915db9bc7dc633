#pragma once

#include "redis_value.h"

#include <map>
#include <string>
#include <vector>

namespace couplet {

// One stream entry: its id ("1700000000000-0") and its field/value pairs.
struct StreamEntry {
    std::string stream;   // the key it was read from
    std::string id;
    std::map<std::string, std::string> fields;

    // The field's value; throws RedisError naming the entry when it is missing.
    const std::string& field(const std::string& name) const;
};

// Entries of an XREAD/XREADGROUP reply ([[stream, [[id, [f, v, ...]], ...]], ...]).
// Entries whose fields are nil (deleted while pending) are skipped.
std::vector<StreamEntry> streamEntries(const RedisValue& reply);
// Entries of an XRANGE or XCLAIM reply, or of element 1 of an XAUTOCLAIM reply.
std::vector<StreamEntry> entryList(const RedisValue& list, const std::string& stream);
// A flat [field, value, ...] array (HGETALL) as a map.
std::map<std::string, std::string> fieldMap(const RedisValue& flat);

} // namespace couplet
