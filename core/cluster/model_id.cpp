#include "model_id.h"

#include "fnv1a.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace couplet::cluster {
namespace {

void hashFile(const std::filesystem::path& file, std::uint64_t& hash)
{
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    std::vector<char> buffer(1 << 16);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        hash = fnv1a(hash, buffer.data(), static_cast<std::size_t>(in.gcount()));
    }
}

} // namespace

std::string modelIdOf(const std::filesystem::path& dir)
{
    std::uint64_t hash = kFnv1aOffset;
    for (const char* name : {"config.json", "vocab.txt", "model.safetensors", "tones.tsv", "hengpi.txt"}) {
        const auto file = dir / name;
        const bool required = std::string_view(name) != "tones.tsv" && std::string_view(name) != "hengpi.txt";
        if (!std::filesystem::exists(file)) {
            if (required) throw std::runtime_error("not a model folder: " + file.string() + " is missing");
            continue;
        }
        hashFile(file, hash);
    }
    // The decoding and reranking tables (and the 藏头 weights) decide the
    // couplet as much as the weights: a worker whose folder lacks one (or has another) writes other
    // couplets. Each is hashed with its name, so that having it counts.
    for (const char* name : {"align.tsv", "bigrams.tsv", "words.tsv", "themes.tsv", "judge.bin", "examples.tsv", "styles.txt",
                             "acrostic.safetensors"}) {
        const auto file = dir / name;
        if (!std::filesystem::exists(file)) continue;
        hash = fnv1a(hash, name, std::strlen(name));
        hashFile(file, hash);
    }
    const auto normal = dir.lexically_normal();
    std::string folder = (normal.has_filename() ? normal : normal.parent_path()).filename().string();
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return (folder.empty() ? std::string("model") : folder) + "@" + hex;
}

std::string modelHashOf(const std::string& modelId)
{
    const auto at = modelId.rfind('@');
    return at == std::string::npos ? modelId : modelId.substr(at + 1);
}

} // namespace couplet::cluster
