#pragma once

#include "packed_linear.h"

#include <cstdint>
#include <vector>

namespace couplet {

// Which instruction sets the kernels use on this CPU.
struct CpuKernels {
    bool avx2 = false;       // AVX2 and FMA: fp32, bf16-weight and int8 (vpmaddubsw) kernels, 8 lanes
    bool avx512 = false;     // fp32 FMA kernels, 16 lanes
    bool avx512bf16 = false; // vdpbf16ps: bf16 pairs into fp32
    bool avx512vnni = false; // vpdpbusd: unsigned x signed byte quads into int32
    static CpuKernels detect();
    // The portable C++ kernels only, for tests and CPUs without AVX-512.
    static CpuKernels portable() { return {}; }
    // The AVX2 kernels where this CPU has them, as on a CPU without AVX-512, for tests.
    static CpuKernels avx2Only();
};

// One product y = x W^T + b over panels [panelBegin, panelEnd) of `w`, for
// `rows` rows of x (row stride ldx floats) into y (row stride ldy); with
// `accumulate` the result is added to what y holds (a residual connection).
// For bf16 weights `xb` holds x rounded to bf16 (row stride w.in()) where
// usesBf16Activations(); for
// int8 weights `xq` holds x quantised by quantizeRows() (row stride w.in()),
// `xScale` and `xLow` each row's step and minimum.
struct LinearCall {
    const float* x = nullptr;
    const std::uint16_t* xb = nullptr;
    const std::uint8_t* xq = nullptr;
    const float* xScale = nullptr;
    const float* xLow = nullptr;
    int rows = 0;
    int ldx = 0;
    float* y = nullptr;
    int ldy = 0;
    bool accumulate = false;
    int panelBegin = 0;
    int panelEnd = 0;
};

void runLinear(const CpuKernels& cpu, const PackedLinear& w, const LinearCall& call);

// Whether bf16 products on `cpu` read activations rounded to bf16 (the
// AVX-512 bf16 and portable kernels) or the fp32 ones (the AVX2 kernels,
// which widen the weights and multiply in fp32).
bool usesBf16Activations(const CpuKernels& cpu);

// "avx512-bf16", "avx512", "avx2-bf16", "avx2" or "portable": the kernels runLinear() uses for `p` on `cpu`.
const char* kernelName(NativePrecision p, const CpuKernels& cpu);

// x rounded to bf16, `count` values.
void roundToBf16(const CpuKernels& cpu, const float* x, std::uint16_t* out, int count);

// What a product's activations are converted into for its weights: bf16
// copies, or int8 bytes with each row's step and minimum. Sized once for the
// largest product (reserve), then reused, so that products do not allocate.
struct ActivationBuffers {
    std::vector<std::uint16_t> bf16;
    std::vector<std::uint8_t> int8;
    std::vector<float> rowQuant; // rows steps, then rows minimums
    void reserve(int rows, int width);
};

// y = x W^T + b (added to what y holds with `accumulate`) for `rows` rows of
// x (row stride w.in()): x converted for w's precision into `buffers`, the
// output panels split over libtorch's intra-op threads.
void linearProduct(const CpuKernels& cpu, const PackedLinear& w, const float* x, int rows, float* y, int ldy,
                   bool accumulate, ActivationBuffers& buffers);

// Dynamic int8 quantisation of `rows` rows of x (row stride and width `k`),
// asymmetric: low[r] = min x_r, scale[r] = (max x_r - min x_r) / 255 (1 for a
// constant row), out = round((x - low) / scale) as unsigned bytes, the form
// vpdpbusd takes. A GELU output (-0.17 to a few units) keeps twice the
// resolution a symmetric scale would give it.
void quantizeRows(const CpuKernels& cpu, const float* x, int rows, int k, std::uint8_t* out, float* scale, float* low);

} // namespace couplet
