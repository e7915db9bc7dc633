#include "vector_ops.h"

#include "fast_exp.h"

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <type_traits>

namespace couplet {
namespace {

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

#ifdef COUPLET_X86_KERNELS
// The same erf polynomial as erfApprox, 16 lanes at a time.
__attribute__((target("avx512f,avx512dq"))) void geluAvx512(float* x, int n)
{
    const __m512 sign = _mm512_set1_ps(-0.0f);
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512 v = _mm512_loadu_ps(x + i);
        const __m512 z = _mm512_mul_ps(v, _mm512_set1_ps(0.70710678118654752f));
        const __m512 a = _mm512_andnot_ps(sign, z);
        const __m512 t = _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_fmadd_ps(a, _mm512_set1_ps(0.3275911f), _mm512_set1_ps(1.0f)));
        __m512 poly = _mm512_set1_ps(1.061405429f);
        poly = _mm512_fmadd_ps(poly, t, _mm512_set1_ps(-1.453152027f));
        poly = _mm512_fmadd_ps(poly, t, _mm512_set1_ps(1.421413741f));
        poly = _mm512_fmadd_ps(poly, t, _mm512_set1_ps(-0.284496736f));
        poly = _mm512_fmadd_ps(poly, t, _mm512_set1_ps(0.254829592f));
        const __m512 e = expAvx512(_mm512_mul_ps(_mm512_sub_ps(_mm512_setzero_ps(), a), a));
        const __m512 erfAbs = _mm512_fnmadd_ps(_mm512_mul_ps(poly, t), e, _mm512_set1_ps(1.0f));
        const __m512 erf = _mm512_or_ps(erfAbs, _mm512_and_ps(z, sign));
        const __m512 half = _mm512_mul_ps(v, _mm512_set1_ps(0.5f));
        _mm512_storeu_ps(x + i, _mm512_fmadd_ps(half, erf, half));
    }
    for (; i < n; ++i) x[i] = 0.5f * x[i] * (1.0f + erfApprox(x[i] * 0.70710678118654752f));
}

// Lane i of the result is the sum of the 16 lanes of v[i]: a tree of
// in-lane unpacks and shuffles, then across the 128-bit quarters.
__attribute__((target("avx512f,avx512dq"))) inline __m512 sum16(const __m512* v)
{
    __m512 a[8], b[4], c[2];
    for (int i = 0; i < 8; ++i)
        a[i] = _mm512_add_ps(_mm512_unpacklo_ps(v[2 * i], v[2 * i + 1]), _mm512_unpackhi_ps(v[2 * i], v[2 * i + 1]));
    for (int i = 0; i < 4; ++i)
        b[i] = _mm512_add_ps(_mm512_shuffle_ps(a[2 * i], a[2 * i + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                             _mm512_shuffle_ps(a[2 * i], a[2 * i + 1], _MM_SHUFFLE(3, 2, 3, 2)));
    for (int i = 0; i < 2; ++i)
        c[i] = _mm512_add_ps(_mm512_shuffle_f32x4(b[2 * i], b[2 * i + 1], _MM_SHUFFLE(2, 0, 2, 0)),
                             _mm512_shuffle_f32x4(b[2 * i], b[2 * i + 1], _MM_SHUFFLE(3, 1, 3, 1)));
    return _mm512_add_ps(_mm512_shuffle_f32x4(c[0], c[1], _MM_SHUFFLE(2, 0, 2, 0)),
                         _mm512_shuffle_f32x4(c[0], c[1], _MM_SHUFFLE(3, 1, 3, 1)));
}

// 16 stored keys or values as floats: fp32 as they are, bf16 widened (its
// bits are a float's upper half).
__attribute__((target("avx512f,avx512dq"))) inline __m512 load16(const float* p)
{
    return _mm512_loadu_ps(p);
}

__attribute__((target("avx512f,avx512dq"))) inline __m512 load16(const std::uint16_t* p)
{
    const __m512i wide = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    return _mm512_castsi512_ps(_mm512_slli_epi32(wide, 16));
}

// attendHead for a head width that is a multiple of 16 (at most 128).
template <typename T>
__attribute__((target("avx512f,avx512dq"))) void attendAvx512(const float* q, const T* keys, const T* values,
                                                              int stride, int headDim, int length, float scale,
                                                              float* scores, float* out)
{
    const int lanes = headDim / 16;
    __m512 qv[8];
    for (int l = 0; l < lanes; ++l) qv[l] = _mm512_mul_ps(_mm512_loadu_ps(q + 16 * l), _mm512_set1_ps(scale));
    float top = -3.4e38f;
    int j = 0;
    // 16 positions at a time: their 16 dot products are summed across lanes
    // together (sum16), instead of one horizontal reduction per position.
    __m512 best = _mm512_set1_ps(-3.4e38f);
    for (; j + 16 <= length; j += 16) {
        __m512 acc[16];
        for (int i = 0; i < 16; ++i) {
            const T* k = keys + static_cast<std::size_t>(j + i) * stride;
            acc[i] = _mm512_mul_ps(qv[0], load16(k));
            for (int l = 1; l < lanes; ++l) acc[i] = _mm512_fmadd_ps(qv[l], load16(k + 16 * l), acc[i]);
        }
        const __m512 s16 = sum16(acc);
        _mm512_storeu_ps(scores + j, s16);
        best = _mm512_max_ps(best, s16);
    }
    if (j > 0) {
        alignas(64) float lanesMax[16];
        _mm512_store_ps(lanesMax, best);
        for (float v : lanesMax) top = std::fmax(top, v);
    }
    for (; j < length; ++j) {
        const T* k = keys + static_cast<std::size_t>(j) * stride;
        __m512 acc = _mm512_mul_ps(qv[0], load16(k));
        for (int l = 1; l < lanes; ++l) acc = _mm512_fmadd_ps(qv[l], load16(k + 16 * l), acc);
        scores[j] = _mm512_reduce_add_ps(acc);
        top = std::fmax(top, scores[j]);
    }
    float sum = 0;
    j = 0;
    for (; j + 16 <= length; j += 16) {
        const __m512 e = expAvx512(_mm512_sub_ps(_mm512_loadu_ps(scores + j), _mm512_set1_ps(top)));
        _mm512_storeu_ps(scores + j, e);
        sum += _mm512_reduce_add_ps(e);
    }
    for (; j < length; ++j) sum += scores[j] = expApprox(scores[j] - top);
    const float inv = 1.0f / sum;
    __m512 acc[8];
    for (int l = 0; l < lanes; ++l) acc[l] = _mm512_setzero_ps();
    for (int p = 0; p < length; ++p) {
        const __m512 w = _mm512_set1_ps(scores[p] * inv);
        const T* v = values + static_cast<std::size_t>(p) * stride;
        for (int l = 0; l < lanes; ++l) acc[l] = _mm512_fmadd_ps(w, load16(v + 16 * l), acc[l]);
    }
    for (int l = 0; l < lanes; ++l) _mm512_storeu_ps(out + 16 * l, acc[l]);
}

// The lanes of 16-float block b that hold one of `used` scores.
inline __mmask16 blockMask(int used, int b)
{
    const int n = std::min(16, used - 16 * b);
    return n >= 16 ? __mmask16(0xffff) : __mmask16((1u << n) - 1u);
}

// Lanes i, i+heads, i+2heads, ... (one head's) folded together by rotations:
// their maximum or their sum, in each of them.
__attribute__((target("avx512f,avx512dq"))) inline __m512 foldHeads(__m512 v, int heads, bool isMax)
{
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (int shift = heads; shift < 16; shift *= 2) {
        const __m512i index = _mm512_and_si512(_mm512_add_epi32(lane, _mm512_set1_epi32(shift)), _mm512_set1_epi32(15));
        const __m512 r = _mm512_permutexvar_ps(index, v);
        v = isMax ? _mm512_max_ps(v, r) : _mm512_add_ps(v, r);
    }
    return v;
}

// One head's query-key product as 16 partial sums: the head's `perHead`
// vectors from `first`, q already scaled.
template <typename T>
__attribute__((target("avx512f,avx512dq"))) inline __m512 headDot(const __m512* qv, const T* k, int first, int perHead)
{
    __m512 a = _mm512_mul_ps(qv[first], load16(k + 16 * first));
    for (int l = 1; l < perHead; ++l) a = _mm512_fmadd_ps(qv[first + l], load16(k + 16 * (first + l)), a);
    return a;
}

// All heads of one query together (width = heads x headDim floats a
// position, width/16 <= 16 vectors, heads dividing 16): each position's keys
// and values are read once, front to back, instead of once per head in
// strided passes, which left the reads waiting on memory. Scores are kept
// position-major (`heads` a position); 16/heads positions of all heads are
// reduced at once by sum16, and a lane's head is its index mod heads.
template <typename T>
__attribute__((target("avx512f,avx512dq"))) void attendRowAvx512(const float* q, const T* keys, const T* values,
                                                                 int width, int heads, int length, float scale,
                                                                 float* scores, float* out)
{
    const int vectors = width / 16, perHead = vectors / heads, block = 16 / heads;
    __m512 qv[16];
    for (int l = 0; l < vectors; ++l) qv[l] = _mm512_mul_ps(_mm512_loadu_ps(q + 16 * l), _mm512_set1_ps(scale));
    const int full = length / block * block;
    for (int j = 0; j < full; j += block) {
        __m512 acc[16];
        for (int p = 0; p < block; ++p) {
            const T* k = keys + static_cast<std::size_t>(j + p) * width;
            for (int h = 0; h < heads; ++h) acc[p * heads + h] = headDot(qv, k, h * perHead, perHead);
        }
        _mm512_storeu_ps(scores + static_cast<std::size_t>(j) * heads, sum16(acc));
    }
    for (int j = full; j < length; ++j) {
        const T* k = keys + static_cast<std::size_t>(j) * width;
        for (int h = 0; h < heads; ++h) scores[j * heads + h] = _mm512_reduce_add_ps(headDot(qv, k, h * perHead, perHead));
    }
    // Softmax per head over the 16-lane blocks; the last block's lanes past
    // the end are masked out.
    const int used = length * heads, blocks = (used + 15) / 16;
    __m512 top = _mm512_set1_ps(-3.4e38f);
    for (int b = 0; b < blocks; ++b) {
        const __mmask16 m = blockMask(used, b);
        top = _mm512_mask_max_ps(top, m, top, _mm512_maskz_loadu_ps(m, scores + 16 * b));
    }
    top = foldHeads(top, heads, true);
    __m512 sum = _mm512_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        const __mmask16 m = blockMask(used, b);
        const __m512 e = _mm512_maskz_mov_ps(m, expAvx512(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, scores + 16 * b), top)));
        _mm512_storeu_ps(scores + 16 * b, e);
        sum = _mm512_add_ps(sum, e);
    }
    const __m512 inv = _mm512_div_ps(_mm512_set1_ps(1.0f), foldHeads(sum, heads, false));
    for (int b = 0; b < blocks; ++b) _mm512_storeu_ps(scores + 16 * b, _mm512_mul_ps(_mm512_loadu_ps(scores + 16 * b), inv));
    __m512 acc[16];
    for (int l = 0; l < vectors; ++l) acc[l] = _mm512_setzero_ps();
    for (int j = 0; j < length; ++j) {
        const T* v = values + static_cast<std::size_t>(j) * width;
        for (int h = 0; h < heads; ++h) {
            const __m512 w = _mm512_set1_ps(scores[j * heads + h]);
            for (int l = h * perHead; l < (h + 1) * perHead; ++l) acc[l] = _mm512_fmadd_ps(w, load16(v + 16 * l), acc[l]);
        }
    }
    for (int l = 0; l < vectors; ++l) _mm512_storeu_ps(out + 16 * l, acc[l]);
}
// The AVX2 forms (CPUs without AVX-512): the same arithmetic, 8 lanes.
#define COUPLET_AVX2 __attribute__((target("avx2,fma")))

COUPLET_AVX2 void geluAvx2(float* x, int n)
{
    const __m256 sign = _mm256_set1_ps(-0.0f);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        const __m256 z = _mm256_mul_ps(v, _mm256_set1_ps(0.70710678118654752f));
        const __m256 a = _mm256_andnot_ps(sign, z);
        const __m256 t = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(a, _mm256_set1_ps(0.3275911f), _mm256_set1_ps(1.0f)));
        __m256 poly = _mm256_set1_ps(1.061405429f);
        poly = _mm256_fmadd_ps(poly, t, _mm256_set1_ps(-1.453152027f));
        poly = _mm256_fmadd_ps(poly, t, _mm256_set1_ps(1.421413741f));
        poly = _mm256_fmadd_ps(poly, t, _mm256_set1_ps(-0.284496736f));
        poly = _mm256_fmadd_ps(poly, t, _mm256_set1_ps(0.254829592f));
        const __m256 e = expAvx2(_mm256_mul_ps(_mm256_sub_ps(_mm256_setzero_ps(), a), a));
        const __m256 erfAbs = _mm256_fnmadd_ps(_mm256_mul_ps(poly, t), e, _mm256_set1_ps(1.0f));
        const __m256 erf = _mm256_or_ps(erfAbs, _mm256_and_ps(z, sign));
        const __m256 half = _mm256_mul_ps(v, _mm256_set1_ps(0.5f));
        _mm256_storeu_ps(x + i, _mm256_fmadd_ps(half, erf, half));
    }
    for (; i < n; ++i) x[i] = 0.5f * x[i] * (1.0f + erfApprox(x[i] * 0.70710678118654752f));
}

COUPLET_AVX2 inline __m256 load8(const float* p)
{
    return _mm256_loadu_ps(p);
}

COUPLET_AVX2 inline __m256 load8(const std::uint16_t* p)
{
    const __m256i wide = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
}

COUPLET_AVX2 inline float sum8(__m256 v)
{
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_shuffle_ps(t, t, 1)));
}

// attendHead for a head width that is a multiple of 8 (at most 128). Four
// positions' dot products are summed across lanes together (three hadds and
// one fold of the halves) instead of one horizontal reduction each.
template <typename T>
COUPLET_AVX2 void attendAvx2(const float* q, const T* keys, const T* values, int stride, int headDim, int length,
                             float scale, float* scores, float* out)
{
    const int lanes = headDim / 8;
    __m256 qv[16];
    for (int l = 0; l < lanes; ++l) qv[l] = _mm256_mul_ps(_mm256_loadu_ps(q + 8 * l), _mm256_set1_ps(scale));
    int j = 0;
    __m128 best = _mm_set1_ps(-3.4e38f);
    for (; j + 4 <= length; j += 4) {
        __m256 acc[4];
        for (int i = 0; i < 4; ++i) {
            const T* k = keys + static_cast<std::size_t>(j + i) * stride;
            acc[i] = _mm256_mul_ps(qv[0], load8(k));
            for (int l = 1; l < lanes; ++l) acc[i] = _mm256_fmadd_ps(qv[l], load8(k + 8 * l), acc[i]);
        }
        const __m256 h = _mm256_hadd_ps(_mm256_hadd_ps(acc[0], acc[1]), _mm256_hadd_ps(acc[2], acc[3]));
        const __m128 s4 = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
        _mm_storeu_ps(scores + j, s4);
        best = _mm_max_ps(best, s4);
    }
    alignas(16) float lanesMax[4];
    _mm_store_ps(lanesMax, best);
    float top = std::fmax(std::fmax(lanesMax[0], lanesMax[1]), std::fmax(lanesMax[2], lanesMax[3]));
    for (; j < length; ++j) {
        const T* k = keys + static_cast<std::size_t>(j) * stride;
        __m256 acc = _mm256_mul_ps(qv[0], load8(k));
        for (int l = 1; l < lanes; ++l) acc = _mm256_fmadd_ps(qv[l], load8(k + 8 * l), acc);
        scores[j] = sum8(acc);
        top = std::fmax(top, scores[j]);
    }
    __m256 sums = _mm256_setzero_ps();
    j = 0;
    for (; j + 8 <= length; j += 8) {
        const __m256 e = expAvx2(_mm256_sub_ps(_mm256_loadu_ps(scores + j), _mm256_set1_ps(top)));
        _mm256_storeu_ps(scores + j, e);
        sums = _mm256_add_ps(sums, e);
    }
    float sum = sum8(sums);
    for (; j < length; ++j) sum += scores[j] = expApprox(scores[j] - top);
    const float inv = 1.0f / sum;
    __m256 acc[16];
    for (int l = 0; l < lanes; ++l) acc[l] = _mm256_setzero_ps();
    for (int p = 0; p < length; ++p) {
        const __m256 w = _mm256_set1_ps(scores[p] * inv);
        const T* v = values + static_cast<std::size_t>(p) * stride;
        for (int l = 0; l < lanes; ++l) acc[l] = _mm256_fmadd_ps(w, load8(v + 8 * l), acc[l]);
    }
    for (int l = 0; l < lanes; ++l) _mm256_storeu_ps(out + 8 * l, acc[l]);
}
#endif

} // namespace

namespace {

inline float widened(float x) { return x; }

inline float widened(std::uint16_t x)
{
    const std::uint32_t bits = static_cast<std::uint32_t>(x) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

template <typename T>
void attendPortable(const float* q, const T* keys, const T* values, int stride, int headDim, int length, float scale,
                    float* scores, float* out)
{
    if constexpr (std::is_same_v<T, float>) {
        for (int j = 0; j < length; ++j) scores[j] = dot(q, keys + static_cast<std::size_t>(j) * stride, headDim) * scale;
        softmaxInPlace(scores, length);
        std::fill(out, out + headDim, 0.0f);
        for (int j = 0; j < length; ++j) axpy(scores[j], values + static_cast<std::size_t>(j) * stride, out, headDim);
        return;
    }
    for (int j = 0; j < length; ++j) {
        const T* k = keys + static_cast<std::size_t>(j) * stride;
        float s = 0;
        for (int i = 0; i < headDim; ++i) s += q[i] * widened(k[i]);
        scores[j] = s * scale;
    }
    softmaxInPlace(scores, length);
    std::fill(out, out + headDim, 0.0f);
    for (int j = 0; j < length; ++j) {
        const T* v = values + static_cast<std::size_t>(j) * stride;
        for (int i = 0; i < headDim; ++i) out[i] += scores[j] * widened(v[i]);
    }
}

template <typename T>
void attend(const float* q, const T* keys, const T* values, int stride, int headDim, int length, float scale,
            float* scores, float* out, VectorIsa isa)
{
#ifdef COUPLET_X86_KERNELS
    if (isa == VectorIsa::Avx512 && headDim % 16 == 0 && headDim <= 128) {
        attendAvx512(q, keys, values, stride, headDim, length, scale, scores, out);
        return;
    }
    if (isa != VectorIsa::Portable && headDim % 8 == 0 && headDim <= 128) {
        attendAvx2(q, keys, values, stride, headDim, length, scale, scores, out);
        return;
    }
#endif
    (void)isa;
    attendPortable(q, keys, values, stride, headDim, length, scale, scores, out);
}

template <typename T>
bool attendRow(const float* q, const T* keys, const T* values, int width, int heads, int length, float scale,
               float* scores, float* out, VectorIsa isa)
{
#ifdef COUPLET_X86_KERNELS
    if (isa == VectorIsa::Avx512 && heads > 0 && width % (16 * heads) == 0 && width <= 256 && 16 % heads == 0) {
        attendRowAvx512(q, keys, values, width, heads, length, scale, scores, out);
        return true;
    }
#endif
    (void)q, (void)keys, (void)values, (void)width, (void)heads, (void)length, (void)scale, (void)scores, (void)out,
        (void)isa;
    return false;
}

} // namespace

bool attendAllHeads(const float* q, const float* keys, const float* values, int width, int heads, int length,
                    float scale, float* scores, float* out, VectorIsa isa)
{
    return attendRow(q, keys, values, width, heads, length, scale, scores, out, isa);
}

bool attendAllHeads(const float* q, const std::uint16_t* keys, const std::uint16_t* values, int width, int heads,
                    int length, float scale, float* scores, float* out, VectorIsa isa)
{
    return attendRow(q, keys, values, width, heads, length, scale, scores, out, isa);
}

void attendHead(const float* q, const float* keys, const float* values, int stride, int headDim, int length, float scale,
                float* scores, float* out, VectorIsa isa)
{
    attend(q, keys, values, stride, headDim, length, scale, scores, out, isa);
}

void attendHead(const float* q, const std::uint16_t* keys, const std::uint16_t* values, int stride, int headDim,
                int length, float scale, float* scores, float* out, VectorIsa isa)
{
    attend(q, keys, values, stride, headDim, length, scale, scores, out, isa);
}

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

void geluInPlace(float* x, int n, VectorIsa isa)
{
#ifdef COUPLET_X86_KERNELS
    if (isa == VectorIsa::Avx512) {
        geluAvx512(x, n);
        return;
    }
    if (isa == VectorIsa::Avx2) {
        geluAvx2(x, n);
        return;
    }
#endif
    (void)isa;
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
