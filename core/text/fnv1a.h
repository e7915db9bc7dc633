#pragma once

#include <cstddef>
#include <cstdint>

namespace couplet {

// 64-bit FNV-1a: a hash of bytes that is the same on every platform and
// build, for file checksums, model ids and fixed data splits.
inline constexpr std::uint64_t kFnv1aOffset = 14695981039346656037ull;
inline constexpr std::uint64_t kFnv1aPrime = 1099511628211ull;

// Continues `hash` over `size` bytes at `data` (start from kFnv1aOffset).
inline std::uint64_t fnv1a(std::uint64_t hash, const void* data, std::size_t size)
{
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ p[i]) * kFnv1aPrime;
    return hash;
}

} // namespace couplet
