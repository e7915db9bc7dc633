#include "stream_entry.h"

namespace couplet {

const std::string& StreamEntry::field(const std::string& name) const
{
    const auto it = fields.find(name);
    if (it == fields.end()) throw RedisError(stream + " entry " + id + " has no field '" + name + "'");
    return it->second;
}

std::map<std::string, std::string> fieldMap(const RedisValue& flat)
{
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i + 1 < flat.elements.size(); i += 2)
        out[flat.elements[i].text] = flat.elements[i + 1].text;
    return out;
}

std::vector<StreamEntry> entryList(const RedisValue& list, const std::string& stream)
{
    std::vector<StreamEntry> out;
    for (const RedisValue& e : list.elements) {
        if (e.elements.size() < 2 || e.elements[1].isNil()) continue;
        out.push_back({stream, e.elements[0].text, fieldMap(e.elements[1])});
    }
    return out;
}

std::vector<StreamEntry> streamEntries(const RedisValue& reply)
{
    std::vector<StreamEntry> out;
    for (const RedisValue& s : reply.elements) {
        if (s.elements.size() < 2) continue;
        auto entries = entryList(s.elements[1], s.elements[0].text);
        out.insert(out.end(), std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()));
    }
    return out;
}

} // namespace couplet
