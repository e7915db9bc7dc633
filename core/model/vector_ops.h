#pragma once

#include <cstdint>

namespace couplet {

// The element-wise parts of a Transformer step, as plain loops the compiler
// vectorises. Accurate to about 2e-7 relative (exp) and 1.5e-7 absolute (erf),
// well inside the 1e-4 the native decoder promises against libtorch.

// Which vector forms a call may use: the portable loops, AVX2 with FMA (8
// lanes) or AVX-512F/DQ (16 lanes). The caller says what the CPU has.
enum class VectorIsa { Portable, Avx2, Avx512 };

// y = (x - mean) / sqrt(var + eps) * gain + bias over `n` values.
void layerNorm(const float* x, const float* gain, const float* bias, float* y, int n, float eps = 1e-5f);
// x = x * Phi(x) in place (exact GELU, erf form), `n` values, 16 or 8 at a
// time with the AVX-512 or AVX2 form.
void geluInPlace(float* x, int n, VectorIsa isa = VectorIsa::Portable);
// x = softmax(x) in place over `n` values.
void softmaxInPlace(float* x, int n);
// One attention head for one query: scores over `length` positions of keys
// and values (position j at keys + j * stride), softmax, weighted sum into
// out[0..headDim). `scores` holds `length` floats of scratch.
void attendHead(const float* q, const float* keys, const float* values, int stride, int headDim, int length, float scale,
                float* scores, float* out, VectorIsa isa = VectorIsa::Portable);
// The same with keys and values stored in bf16 (a float's upper 16 bits),
// widened to fp32 as they are read.
void attendHead(const float* q, const std::uint16_t* keys, const std::uint16_t* values, int stride, int headDim,
                int length, float scale, float* scores, float* out, VectorIsa isa = VectorIsa::Portable);
// All `heads` heads of one query at once, with keys and values `width`
// (= heads x head width) floats a position, position j at keys + j * width;
// out[0..width). `scores` holds (length + 16) * heads floats of scratch.
// Returns false, computing nothing, where the CPU or the shape does not suit
// the kernel (AVX-512, width/16 vectors at most 16, heads dividing 16): the
// caller then runs attendHead per head. Same results within float rounding.
bool attendAllHeads(const float* q, const float* keys, const float* values, int width, int heads, int length,
                    float scale, float* scores, float* out, VectorIsa isa);
bool attendAllHeads(const float* q, const std::uint16_t* keys, const std::uint16_t* values, int width, int heads,
                    int length, float scale, float* scores, float* out, VectorIsa isa);
float dot(const float* a, const float* b, int n);
// y += a * x over `n` values.
void axpy(float a, const float* x, float* y, int n);

} // namespace couplet
