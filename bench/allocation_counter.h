#pragma once

#include <cstdint>

namespace couplet::bench {

// Heap allocations made through operator new (every std::vector, string and
// std::function of the project and of libtorch's C++ code) since the program
// started, on all threads. Linking this file replaces the global operator
// new for the whole program with one that counts (one relaxed atomic add)
// and then calls malloc. C code's own malloc calls (OpenBLAS, glibc) are not
// counted.
std::uint64_t allocationsSoFar();

} // namespace couplet::bench
