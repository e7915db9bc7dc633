#pragma once

// How rows and results travel in the streams (see cluster_keys.h).

#include "generation_spec.h"
#include "row_generator.h"
#include "stream_entry.h"

#include <cstdint>
#include <string>
#include <vector>

namespace couplet::cluster {

// GenerationSpec as JSON, every field; specFromJson throws std::invalid_argument
// naming the problem for text that is not such an object.
std::string specToJson(const GenerationSpec& spec);
GenerationSpec specFromJson(const std::string& json);

// One result as a results-stream entry: "row", the record number, then the
// RowResult's fields and the worker that wrote it.
struct RowMessage {
    std::uint64_t row = 0;
    RowResult result;
    std::string worker;
};

std::vector<std::string> resultFields(const RowMessage& message);
// Throws RedisError naming the entry when a field is missing or malformed.
RowMessage resultFromEntry(const StreamEntry& entry);
std::uint64_t rowOf(const StreamEntry& entry);

} // namespace couplet::cluster
