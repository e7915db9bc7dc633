#include "vector_ops.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace couplet {
namespace {

// e^x for x in about [-87, 88]: 2^n * e^r with |r| <= ln2/2 and a degree-6
// polynomial for e^r. Branch-free so that loops over it vectorise.
inline float expApprox(float x)
{
    x = std::fmin(std::fmax(x, -87.0f), 88.0f);
    const float n = std::nearbyint(x * 1.44269504088896341f);
    const float r = (x - n * 0.693145751953125f) - n * 1.42860682030941723e-6f;
    float p = 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    const std::int32_t bits = (static_cast<std::int32_t>(n) + 127) << 23;
    float scale = 0;
    std::memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

// erf by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
inline float erfApprox(float x)
{
    const float a = std::fabs(x);
    const float t = 1.0f / (1.0f + 0.3275911f * a);
    float poly = 1.061405429f;
    poly = poly * t - 1.453152027f;
    poly = poly * t + 1.421413741f;
    poly = poly * t - 0.284496736f;
    poly = poly * t + 0.254829592f;
    const float y = 1.0f - poly * t * expApprox(-a * a);
    return std::copysign(y, x);
}

} // namespace

void layerNorm(const float* x, const float* gain, const float* bias, float* y, int n, float eps)
{
    float sum = 0;
#pragma omp simd reduction(+ : sum)
    for (int i = 0; i < n; ++i) sum += x[i];
    const float mean = sum / static_cast<float>(n);
    float var = 0;
#pragma omp simd reduction(+ : var)
    for (int i = 0; i < n; ++i) var += (x[i] - mean) * (x[i] - mean);
    const float inv = 1.0f / std::sqrt(var / static_cast<float>(n) + eps);
    for (int i = 0; i < n; ++i) y[i] = (x[i] - mean) * inv * gain[i] + bias[i];
}

void geluInPlace(float* x, int n)
{
    for (int i = 0; i < n; ++i) x[i] = 0.5f * x[i] * (1.0f + erfApprox(x[i] * 0.70710678118654752f));
}

void softmaxInPlace(float* x, int n)
{
    float top = x[0];
    for (int i = 1; i < n; ++i) top = std::fmax(top, x[i]);
    float sum = 0;
    for (int i = 0; i < n; ++i) {
        x[i] = expApprox(x[i] - top);
        sum += x[i];
    }
    const float inv = 1.0f / sum;
    for (int i = 0; i < n; ++i) x[i] *= inv;
}

float dot(const float* a, const float* b, int n)
{
    float s = 0;
#pragma omp simd reduction(+ : s)
    for (int i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

void axpy(float a, const float* x, float* y, int n)
{
    for (int i = 0; i < n; ++i) y[i] += a * x[i];
}

} // namespace couplet
