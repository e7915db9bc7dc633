#pragma once

namespace couplet {

// The element-wise parts of a Transformer step, as plain loops the compiler
// vectorises. Accurate to about 2e-7 relative (exp) and 1.5e-7 absolute (erf),
// well inside the 1e-4 the native decoder promises against libtorch.

// y = (x - mean) / sqrt(var + eps) * gain + bias over `n` values.
void layerNorm(const float* x, const float* gain, const float* bias, float* y, int n, float eps = 1e-5f);
// x = x * Phi(x) in place (exact GELU, erf form), `n` values.
void geluInPlace(float* x, int n);
// x = softmax(x) in place over `n` values.
void softmaxInPlace(float* x, int n);
float dot(const float* a, const float* b, int n);
// y += a * x over `n` values.
void axpy(float a, const float* x, float* y, int n);

} // namespace couplet
