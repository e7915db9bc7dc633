#include "safetensors.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace couplet::safetensors {
namespace {

// Headers larger than this are certainly not ours (and guard a corrupt length).
constexpr std::uint64_t kMaxHeaderBytes = 100u << 20;

struct DtypeInfo {
    const char* name;
    torch::ScalarType type;
    std::size_t bytes;
};

constexpr DtypeInfo kDtypes[] = {
    {"F32", torch::kFloat32, 4}, {"F16", torch::kFloat16, 2}, {"BF16", torch::kBFloat16, 2},
    {"I64", torch::kInt64, 8},   {"I32", torch::kInt32, 4},   {"U8", torch::kUInt8, 1},
};

const DtypeInfo& byType(torch::ScalarType t)
{
    for (const auto& d : kDtypes)
        if (d.type == t) return d;
    throw std::runtime_error(std::string("dtype not supported by the writer: ") + c10::toString(t));
}

const DtypeInfo* byName(const std::string& name)
{
    for (const auto& d : kDtypes)
        if (name == d.name) return &d;
    return nullptr;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what)
{
    throw std::runtime_error(path.string() + ": " + what);
}

torch::Tensor tensorFromEntry(const std::filesystem::path& path, const std::string& name,
                              const nlohmann::json& entry, const char* data, std::size_t dataSize)
{
    const std::string dtype = entry.at("dtype").get<std::string>();
    const DtypeInfo* info = byName(dtype);
    if (info == nullptr) fail(path, "tensor '" + name + "' has unsupported dtype " + dtype);
    std::vector<int64_t> shape = entry.at("shape").get<std::vector<int64_t>>();
    const auto offsets = entry.at("data_offsets").get<std::vector<std::uint64_t>>();
    if (offsets.size() != 2 || offsets[0] > offsets[1] || offsets[1] > dataSize)
        fail(path, "tensor '" + name + "' has data offsets outside the file (truncated?)");
    std::uint64_t count = 1;
    for (auto d : shape) {
        if (d < 0) fail(path, "tensor '" + name + "' has a negative dimension");
        count *= static_cast<std::uint64_t>(d);
    }
    if (count * info->bytes != offsets[1] - offsets[0])
        fail(path, "tensor '" + name + "' size does not match its shape and dtype");
    auto t = torch::empty(shape, torch::TensorOptions().dtype(info->type));
    if (count > 0) std::memcpy(t.data_ptr(), data + offsets[0], offsets[1] - offsets[0]);
    return t;
}

// The 8-byte length and the JSON header of a safetensors file, checked against
// the file's size; `fileSize` is the whole file's length in bytes.
nlohmann::json parseHeader(const std::filesystem::path& path, std::istream& in, std::uint64_t fileSize, std::uint64_t& headerLen)
{
    if (fileSize < 8) fail(path, "truncated: " + std::to_string(fileSize) + " bytes, no header");
    unsigned char len[8];
    if (!in.read(reinterpret_cast<char*>(len), 8)) fail(path, "read error");
    headerLen = 0;
    for (int i = 0; i < 8; ++i) headerLen |= static_cast<std::uint64_t>(len[i]) << (8 * i);
    if (headerLen > kMaxHeaderBytes || 8 + headerLen > fileSize)
        fail(path, "header length " + std::to_string(headerLen) + " exceeds the file size " + std::to_string(fileSize)
                       + " (truncated or not a safetensors file)");
    std::string text(static_cast<std::size_t>(headerLen), '\0');
    if (headerLen > 0 && !in.read(text.data(), static_cast<std::streamsize>(headerLen))) fail(path, "read error");
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        fail(path, std::string("header is not valid JSON: ") + e.what());
    }
    if (!header.is_object()) fail(path, "header is not a JSON object");
    return header;
}

std::map<std::string, std::string> metadataOf(const nlohmann::json& header)
{
    std::map<std::string, std::string> out;
    if (const auto it = header.find("__metadata__"); it != header.end())
        for (const auto& [k, v] : it->items()) out[k] = v.is_string() ? v.get<std::string>() : v.dump();
    return out;
}

std::ifstream openSized(const std::filesystem::path& path, std::uint64_t& size)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) fail(path, "cannot open file (missing or unreadable)");
    size = static_cast<std::uint64_t>(in.tellg());
    in.seekg(0);
    return in;
}

} // namespace

void save(const std::filesystem::path& path, const TensorMap& tensors,
          const std::map<std::string, std::string>& metadata)
{
    nlohmann::json header = nlohmann::json::object();
    std::vector<torch::Tensor> cpu;
    std::uint64_t offset = 0;
    for (const auto& [name, tensor] : tensors) {
        auto t = tensor.detach().to(torch::kCPU).contiguous();
        const auto& info = byType(t.scalar_type());
        const std::uint64_t bytes = static_cast<std::uint64_t>(t.numel()) * info.bytes;
        header[name] = {{"dtype", info.name}, {"shape", t.sizes().vec()}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
        cpu.push_back(t);
    }
    if (!metadata.empty()) header["__metadata__"] = metadata;
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' '); // keep the data 8-byte aligned
    const std::uint64_t headerLen = text.size();

    const auto tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) fail(tmp, "cannot write");
        unsigned char len[8];
        for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(headerLen >> (8 * i));
        out.write(reinterpret_cast<const char*>(len), 8);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        for (const auto& t : cpu)
            out.write(static_cast<const char*>(t.data_ptr()),
                      static_cast<std::streamsize>(t.numel() * t.element_size()));
        if (!out.flush()) fail(tmp, "write failed (disk full?)");
    }
    std::filesystem::rename(tmp, path);
}

TensorMap load(const std::filesystem::path& path, std::map<std::string, std::string>* metadata)
{
    std::uint64_t fileSize = 0, headerLen = 0;
    auto in = openSized(path, fileSize);
    const auto header = parseHeader(path, in, fileSize, headerLen);
    const std::size_t dataSize = static_cast<std::size_t>(fileSize - 8 - headerLen);
    std::vector<char> data(dataSize);
    if (dataSize > 0 && !in.read(data.data(), static_cast<std::streamsize>(dataSize))) fail(path, "read error");
    if (metadata != nullptr) *metadata = metadataOf(header);
    TensorMap out;
    for (const auto& [name, entry] : header.items()) {
        if (name == "__metadata__") continue;
        try {
            out[name] = tensorFromEntry(path, name, entry, data.data(), dataSize);
        } catch (const nlohmann::json::exception& e) {
            fail(path, "tensor '" + name + "' has a malformed entry: " + e.what());
        }
    }
    return out;
}

std::map<std::string, std::string> loadMetadata(const std::filesystem::path& path)
{
    std::uint64_t fileSize = 0, headerLen = 0;
    auto in = openSized(path, fileSize);
    return metadataOf(parseHeader(path, in, fileSize, headerLen));
}

} // namespace couplet::safetensors
