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

std::vector<char> readAll(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) fail(path, "cannot open file (missing or unreadable)");
    const auto size = static_cast<std::size_t>(in.tellg());
    std::vector<char> bytes(size);
    in.seekg(0);
    if (size > 0 && !in.read(bytes.data(), static_cast<std::streamsize>(size))) fail(path, "read error");
    return bytes;
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
    const auto bytes = readAll(path);
    if (bytes.size() < 8) fail(path, "truncated: " + std::to_string(bytes.size()) + " bytes, no header");
    std::uint64_t headerLen = 0;
    for (int i = 0; i < 8; ++i) headerLen |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
    if (headerLen > kMaxHeaderBytes || 8 + headerLen > bytes.size())
        fail(path, "header length " + std::to_string(headerLen) + " exceeds the file size "
                       + std::to_string(bytes.size()) + " (truncated or not a safetensors file)");
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + static_cast<std::ptrdiff_t>(headerLen));
    } catch (const nlohmann::json::exception& e) {
        fail(path, std::string("header is not valid JSON: ") + e.what());
    }
    if (!header.is_object()) fail(path, "header is not a JSON object");
    const char* data = bytes.data() + 8 + headerLen;
    const std::size_t dataSize = bytes.size() - 8 - headerLen;
    TensorMap out;
    for (const auto& [name, entry] : header.items()) {
        if (name == "__metadata__") {
            if (metadata != nullptr)
                for (const auto& [k, v] : entry.items()) (*metadata)[k] = v.is_string() ? v.get<std::string>() : v.dump();
            continue;
        }
        try {
            out[name] = tensorFromEntry(path, name, entry, data, dataSize);
        } catch (const nlohmann::json::exception& e) {
            fail(path, "tensor '" + name + "' has a malformed entry: " + e.what());
        }
    }
    return out;
}

} // namespace couplet::safetensors
