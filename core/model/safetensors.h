#pragma once

#include <torch/types.h>

#include <filesystem>
#include <map>
#include <string>

namespace couplet::safetensors {

// The safetensors format: an 8-byte little-endian header length, a JSON
// header {"name": {"dtype", "shape", "data_offsets": [begin, end]}, ...,
// "__metadata__": {string: string}}, then the raw little-endian tensor bytes.
// Readable by the Python `safetensors` package and by libtorch 1.13 and 2.x.

using TensorMap = std::map<std::string, torch::Tensor>;

// Writes the tensors (moved to the CPU, made contiguous) atomically: to a
// temporary file first, then renamed over `path`.
void save(const std::filesystem::path& path, const TensorMap& tensors,
          const std::map<std::string, std::string>& metadata = {});

// Reads every tensor. Throws std::runtime_error naming the file and what is
// wrong: missing, truncated, bad header, unknown dtype, offsets out of range.
TensorMap load(const std::filesystem::path& path, std::map<std::string, std::string>* metadata = nullptr);

// Reads only the header's "__metadata__" (empty when it has none), not the
// tensors; throws as load() does for a missing file or a bad header.
std::map<std::string, std::string> loadMetadata(const std::filesystem::path& path);

} // namespace couplet::safetensors
