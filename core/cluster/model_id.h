#pragma once

#include <filesystem>
#include <string>

namespace couplet::cluster {

// What a job and a worker compare to know they mean the same model:
// "FOLDER@HASH", HASH a 64-bit FNV-1a over the model files' bytes (config.json,
// vocab.txt, model.safetensors, tones.tsv, hengpi.txt, those present), as 16
// hex digits. Reads the files without loading the model (no libtorch), so the
// producer can name the model it wants on a machine without a GPU. Throws
// std::runtime_error when the folder has no config.json or model.safetensors.
std::string modelIdOf(const std::filesystem::path& dir);

// The HASH part; two ids with the same hash are the same model whatever the
// folders are called.
std::string modelHashOf(const std::string& modelId);

} // namespace couplet::cluster
