#pragma once

#include <string>

namespace couplet {

// Where a decoder runs; chosen by the user, read by the model loader.
struct DeviceOptions {
    std::string device = "auto";   // "cpu", "cuda" or "auto"
    bool halfPrecision = true;     // fp16/bf16 on a GPU; always fp32 on the CPU
    int threads = 0;               // CPU threads; 0 = all cores
};

} // namespace couplet
