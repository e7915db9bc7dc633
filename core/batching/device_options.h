#pragma once

#include <string>

namespace couplet {

// Where a decoder runs; chosen by the user, read by the model loader.
struct DeviceOptions {
    std::string device = "auto";   // "cpu", "cuda" or "auto"
    bool halfPrecision = true;     // fp16 on a GPU
    int threads = 0;               // CPU threads; 0 = all cores
    // CPU decoding: "auto" (the fastest that keeps the model's output: int8
    // where the CPU has avx512_vnni or AVX2, else bf16 where it has
    // avx512_bf16, else fp32), "fp32", "bf16", "int8" (our own kernels on packed weights), or
    // "libtorch" (libtorch's ops, fp32: the reference the others are tested
    // against).
    std::string precision = "auto";
};

} // namespace couplet
