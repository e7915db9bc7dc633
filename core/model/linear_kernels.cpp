#include "linear_kernels.h"

#include "cpu_features.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>

namespace couplet {
namespace {

constexpr int kLanes = PackedLinear::kPanel;
constexpr int kRowTile = 4;
constexpr int kPanelTile = 4;
// Output panels per parallel chunk below which a product stays on the calling thread.
constexpr std::int64_t kPanelGrain = 8;
// Rows per thread below which converting activations stays on one thread.
constexpr std::int64_t kConvertGrain = 32;

// Output column `col` of row r: the sum plus bias, stored or added.
inline void store(const PackedLinear& w, const LinearCall& c, int r, int col, const float* sums)
{
    float* y = c.y + static_cast<std::size_t>(r) * c.ldy + col;
    const int n = std::min(kLanes, w.out() - col);
    const float* b = w.bias() + col;
    for (int j = 0; j < n; ++j) y[j] = (c.accumulate ? y[j] : 0.0f) + sums[j] + b[j];
}

// Portable kernels: the same panel order, written so that the compiler can
// vectorise the 16-lane inner loops for whatever the build targets.
void portableTile(const PackedLinear& w, const LinearCall& c, int r0, int rows, int p)
{
    const int k = w.in();
    float sums[kRowTile][kLanes] = {};
    if (w.precision() == NativePrecision::Fp32) {
        const float* panel = w.panelF32(p);
        for (int i = 0; i < k; ++i)
            for (int r = 0; r < rows; ++r) {
                const float xv = c.x[static_cast<std::size_t>(r0 + r) * c.ldx + i];
                for (int j = 0; j < kLanes; ++j) sums[r][j] += xv * panel[i * kLanes + j];
            }
    } else if (w.precision() == NativePrecision::Int8) {
        const std::int8_t* panel = w.panelInt8(p);
        std::int32_t acc[kRowTile][kLanes] = {};
        for (int i4 = 0; i4 < k / 4; ++i4)
            for (int r = 0; r < rows; ++r) {
                const std::uint8_t* xr = c.xq + static_cast<std::size_t>(r0 + r) * k + 4 * i4;
                for (int j = 0; j < kLanes; ++j)
                    for (int h = 0; h < 4; ++h) acc[r][j] += xr[h] * panel[(i4 * kLanes + j) * 4 + h];
            }
        for (int r = 0; r < rows; ++r)
            for (int j = 0; j < kLanes; ++j) {
                const int col = p * kLanes + j;
                sums[r][j] = w.scale()[col]
                    * (c.xScale[r0 + r] * static_cast<float>(acc[r][j]) + c.xLow[r0 + r] * static_cast<float>(w.columnSum()[col]));
            }
    } else {
        const std::uint16_t* panel = w.panelBf16(p);
        for (int i2 = 0; i2 < k / 2; ++i2)
            for (int r = 0; r < rows; ++r) {
                const std::uint16_t* xr = c.xb + static_cast<std::size_t>(r0 + r) * k + 2 * i2;
                const float x0 = fromBf16(xr[0]), x1 = fromBf16(xr[1]);
                for (int j = 0; j < kLanes; ++j)
                    sums[r][j] += x0 * fromBf16(panel[(i2 * kLanes + j) * 2]) + x1 * fromBf16(panel[(i2 * kLanes + j) * 2 + 1]);
            }
    }
    for (int r = 0; r < rows; ++r) store(w, c, r0 + r, p * kLanes, sums[r]);
}

// A row's int8 quantisation around its vector loops: the minimum and
// maximum of [from, k) folded into mn and mx, then the step and minimum
// stored; and the scalar quantisation of [from, k).
inline float rowStep(const float* xr, int from, int k, float mn, float mx, float& scale, float& low)
{
    for (int j = from; j < k; ++j) {
        mn = std::min(mn, xr[j]);
        mx = std::max(mx, xr[j]);
    }
    scale = mx > mn ? (mx - mn) / 255.0f : 1.0f;
    low = mn;
    return scale;
}

inline void quantizeTail(const float* xr, std::uint8_t* q, int from, int k, float low, float step)
{
    for (int i = from; i < k; ++i) q[i] = static_cast<std::uint8_t>(std::clamp(std::nearbyint((xr[i] - low) / step), 0.0f, 255.0f));
}

#ifdef COUPLET_X86_KERNELS

#define COUPLET_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma")))
#define COUPLET_AVX512BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16,fma")))
#define COUPLET_AVX512VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,fma")))

template <int R, int P>
COUPLET_AVX512 inline void storeTile(const PackedLinear& w, const LinearCall& c, int r0, int p0, __m512 (&acc)[R][P])
{
    for (int p = 0; p < P; ++p) {
        const int col = (p0 + p) * kLanes;
        const int n = std::min(kLanes, w.out() - col);
        const __mmask16 mask = n >= kLanes ? __mmask16(0xffff) : __mmask16((1u << n) - 1u);
        const __m512 bias = _mm512_loadu_ps(w.bias() + col);
        for (int r = 0; r < R; ++r) {
            float* y = c.y + static_cast<std::size_t>(r0 + r) * c.ldy + col;
            __m512 v = _mm512_add_ps(acc[r][p], bias);
            if (c.accumulate) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, y));
            _mm512_mask_storeu_ps(y, mask, v);
        }
    }
}

template <int R, int P>
COUPLET_AVX512 void avx512Tile(const PackedLinear& w, const LinearCall& c, int r0, int p0)
{
    __m512 acc[R][P];
    for (int r = 0; r < R; ++r)
        for (int p = 0; p < P; ++p) acc[r][p] = _mm512_setzero_ps();
    const float* panel[P];
    for (int p = 0; p < P; ++p) panel[p] = w.panelF32(p0 + p);
    const float* x[R];
    for (int r = 0; r < R; ++r) x[r] = c.x + static_cast<std::size_t>(r0 + r) * c.ldx;
    const int k = w.in();
    for (int i = 0; i < k; ++i) {
        __m512 wv[P];
        for (int p = 0; p < P; ++p) wv[p] = _mm512_loadu_ps(panel[p] + i * kLanes);
        for (int r = 0; r < R; ++r) {
            const __m512 xv = _mm512_set1_ps(x[r][i]);
            for (int p = 0; p < P; ++p) acc[r][p] = _mm512_fmadd_ps(xv, wv[p], acc[r][p]);
        }
    }
    storeTile<R, P>(w, c, r0, p0, acc);
}

template <int R, int P>
COUPLET_AVX512BF16 void bf16Tile(const PackedLinear& w, const LinearCall& c, int r0, int p0)
{
    __m512 acc[R][P];
    for (int r = 0; r < R; ++r)
        for (int p = 0; p < P; ++p) acc[r][p] = _mm512_setzero_ps();
    const std::uint16_t* panel[P];
    for (int p = 0; p < P; ++p) panel[p] = w.panelBf16(p0 + p);
    const int k = w.in();
    const std::uint32_t* x[R];
    for (int r = 0; r < R; ++r) x[r] = reinterpret_cast<const std::uint32_t*>(c.xb + static_cast<std::size_t>(r0 + r) * k);
    for (int i2 = 0; i2 < k / 2; ++i2) {
        __m512bh wv[P];
        for (int p = 0; p < P; ++p) wv[p] = (__m512bh)_mm512_loadu_si512(panel[p] + i2 * 2 * kLanes);
        for (int r = 0; r < R; ++r) {
            const __m512bh xv = (__m512bh)_mm512_set1_epi32(static_cast<int>(x[r][i2]));
            for (int p = 0; p < P; ++p) acc[r][p] = _mm512_dpbf16_ps(acc[r][p], xv, wv[p]);
        }
    }
    storeTile<R, P>(w, c, r0, p0, acc);
}

// Int8: unsigned activation bytes ((x - low) / scale) times signed weight
// bytes, four pairs a lane into int32; the store applies the row's scale,
// adds the row minimum times the column's weight sum, and applies the
// column's scale.
template <int R, int P>
COUPLET_AVX512VNNI void int8Tile(const PackedLinear& w, const LinearCall& c, int r0, int p0)
{
    __m512i acc[R][P];
    for (int r = 0; r < R; ++r)
        for (int p = 0; p < P; ++p) acc[r][p] = _mm512_setzero_si512();
    const std::int8_t* panel[P];
    for (int p = 0; p < P; ++p) panel[p] = w.panelInt8(p0 + p);
    const int k = w.in();
    const std::uint32_t* x[R];
    for (int r = 0; r < R; ++r) x[r] = reinterpret_cast<const std::uint32_t*>(c.xq + static_cast<std::size_t>(r0 + r) * k);
    for (int i4 = 0; i4 < k / 4; ++i4) {
        __m512i wv[P];
        for (int p = 0; p < P; ++p) wv[p] = _mm512_loadu_si512(panel[p] + i4 * 4 * kLanes);
        for (int r = 0; r < R; ++r) {
            const __m512i xv = _mm512_set1_epi32(static_cast<int>(x[r][i4]));
            for (int p = 0; p < P; ++p) acc[r][p] = _mm512_dpbusd_epi32(acc[r][p], xv, wv[p]);
        }
    }
    __m512 sums[R][P];
    for (int p = 0; p < P; ++p) {
        const int col = (p0 + p) * kLanes;
        const __m512 columnSum = _mm512_cvtepi32_ps(_mm512_loadu_si512(w.columnSum() + col));
        const __m512 scale = _mm512_loadu_ps(w.scale() + col);
        for (int r = 0; r < R; ++r) {
            const __m512 lowPart = _mm512_mul_ps(_mm512_set1_ps(c.xLow[r0 + r]), columnSum);
            const __m512 v = _mm512_fmadd_ps(_mm512_set1_ps(c.xScale[r0 + r]), _mm512_cvtepi32_ps(acc[r][p]), lowPart);
            sums[r][p] = _mm512_mul_ps(scale, v);
        }
    }
    storeTile<R, P>(w, c, r0, p0, sums);
}

COUPLET_AVX512 void int8Quantize(const float* x, int rows, int k, std::uint8_t* out, float* scale, float* low)
{
    for (int r = 0; r < rows; ++r) {
        const float* xr = x + static_cast<std::size_t>(r) * k;
        std::uint8_t* q = out + static_cast<std::size_t>(r) * k;
        __m512 lo = _mm512_set1_ps(xr[0]), hi = lo;
        int i = 0;
        for (; i + 16 <= k; i += 16) {
            const __m512 v = _mm512_loadu_ps(xr + i);
            lo = _mm512_min_ps(lo, v);
            hi = _mm512_max_ps(hi, v);
        }
        const float s = rowStep(xr, i, k, _mm512_reduce_min_ps(lo), _mm512_reduce_max_ps(hi), scale[r], low[r]);
        const __m512 inv = _mm512_set1_ps(1.0f / s), base = _mm512_set1_ps(low[r]);
        for (i = 0; i + 16 <= k; i += 16) {
            const __m512i v = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(xr + i), base), inv));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(q + i), _mm512_cvtusepi32_epi8(_mm512_max_epi32(v, _mm512_setzero_si512())));
        }
        quantizeTail(xr, q, i, k, low[r], s);
    }
}

// AVX2 and FMA (CPUs without AVX-512: Zen 2/3, Haswell to Alder Lake): a
// 16-lane panel is two 8-lane halves. R rows x P panels of accumulators
// (2RP registers); runAvx2 picks R and P so that they and the panel's
// weights fit the 16 registers.
#define COUPLET_AVX2 __attribute__((target("avx2,fma")))

// Eight output columns from y: the sums plus bias, stored or added; `n` of
// them are real (fewer in the last panel). Takes the sums by value, so that
// the tile's accumulators stay in registers through its loop.
COUPLET_AVX2 inline void storeEight(float* y, const float* bias, __m256 sums, int n, bool accumulate)
{
    __m256 v = _mm256_add_ps(sums, _mm256_loadu_ps(bias));
    if (n >= 8) {
        if (accumulate) v = _mm256_add_ps(v, _mm256_loadu_ps(y));
        _mm256_storeu_ps(y, v);
        return;
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, v);
    for (int j = 0; j < n; ++j) y[j] = (accumulate ? y[j] : 0.0f) + lanes[j];
}

template <int R, int P>
COUPLET_AVX2 inline void storeTileAvx2(const PackedLinear& w, const LinearCall& c, int r0, int p0, __m256 (&acc)[R][2 * P])
{
    for (int p = 0; p < P; ++p) {
        const int col = (p0 + p) * kLanes;
        const int n = std::min(kLanes, w.out() - col);
        for (int r = 0; r < R; ++r) {
            float* y = c.y + static_cast<std::size_t>(r0 + r) * c.ldy + col;
            storeEight(y, w.bias() + col, acc[r][2 * p], n, c.accumulate);
            if (n > 8) storeEight(y + 8, w.bias() + col + 8, acc[r][2 * p + 1], n - 8, c.accumulate);
        }
    }
}

// fp32 weights. bf16 weights are widened as they are read (a bf16 is a
// float's upper half: the pair's first by a shift, its second by a mask)
// and multiplied by the fp32 activations: there is no bf16 product
// instruction to use, and at small batches, where the weights' bytes set
// the time, half of them is what counts.
template <int R, int P, bool Bf16>
COUPLET_AVX2 void avx2Tile(const PackedLinear& w, const LinearCall& c, int r0, int p0)
{
    __m256 acc[R][2 * P];
    for (int r = 0; r < R; ++r)
        for (int l = 0; l < 2 * P; ++l) acc[r][l] = _mm256_setzero_ps();
    const float* x[R];
    for (int r = 0; r < R; ++r) x[r] = c.x + static_cast<std::size_t>(r0 + r) * c.ldx;
    const int k = w.in();
    if constexpr (!Bf16) {
        const float* panel[P];
        for (int p = 0; p < P; ++p) panel[p] = w.panelF32(p0 + p);
        for (int i = 0; i < k; ++i) {
            __m256 wv[2 * P];
            for (int p = 0; p < P; ++p) {
                wv[2 * p] = _mm256_loadu_ps(panel[p] + i * kLanes);
                wv[2 * p + 1] = _mm256_loadu_ps(panel[p] + i * kLanes + 8);
            }
            for (int r = 0; r < R; ++r) {
                const __m256 xv = _mm256_set1_ps(x[r][i]);
                for (int l = 0; l < 2 * P; ++l) acc[r][l] = _mm256_fmadd_ps(xv, wv[l], acc[r][l]);
            }
        }
    } else {
        const std::uint16_t* panel[P];
        for (int p = 0; p < P; ++p) panel[p] = w.panelBf16(p0 + p);
        const __m256i high = _mm256_set1_epi32(static_cast<int>(0xffff0000u));
        // The odd k go to their own accumulators: one chain of two FMAs per
        // pair would leave the loop waiting on FMA latency.
        __m256 accOdd[R][2 * P];
        for (int r = 0; r < R; ++r)
            for (int l = 0; l < 2 * P; ++l) accOdd[r][l] = _mm256_setzero_ps();
        for (int i2 = 0; i2 < k / 2; ++i2)
            for (int l = 0; l < 2 * P; ++l) {
                const auto* pairs = reinterpret_cast<const __m256i*>(panel[l / 2] + (i2 * kLanes + 8 * (l % 2)) * 2);
                const __m256i v = _mm256_loadu_si256(pairs);
                const __m256 even = _mm256_castsi256_ps(_mm256_slli_epi32(v, 16));
                const __m256 odd = _mm256_castsi256_ps(_mm256_and_si256(v, high));
                for (int r = 0; r < R; ++r) {
                    acc[r][l] = _mm256_fmadd_ps(_mm256_set1_ps(x[r][2 * i2]), even, acc[r][l]);
                    accOdd[r][l] = _mm256_fmadd_ps(_mm256_set1_ps(x[r][2 * i2 + 1]), odd, accOdd[r][l]);
                }
            }
        for (int r = 0; r < R; ++r)
            for (int l = 0; l < 2 * P; ++l) acc[r][l] = _mm256_add_ps(acc[r][l], accOdd[r][l]);
    }
    storeTileAvx2<R, P>(w, c, r0, p0, acc);
}

// Int8 without VNNI: vpmaddubsw multiplies unsigned bytes by signed ones
// and adds neighbouring pairs into int16, which saturates on 8-bit
// activations times 8-bit weights (2 x 255 x 127 > 32767). So the
// activation bytes are recentred (q - 128, by flipping the top bit) and
// multiplied as |q - 128| times the weight carrying q - 128's sign:
// 2 x 128 x 127 = 32512 fits. The sum of q times w is that plus 128 times
// the column's weight sum. vpmaddwd by ones adds the pairs' pairs into
// int32. The same bytes and panel layout as the VNNI kernel, and the same
// integer sums, exactly.
template <int R>
COUPLET_AVX2 void int8TileAvx2(const PackedLinear& w, const LinearCall& c, int r0, int p)
{
    __m256i acc[R][2];
    for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
    const std::int8_t* panel = w.panelInt8(p);
    const int k = w.in();
    const std::uint32_t* x[R];
    for (int r = 0; r < R; ++r) x[r] = reinterpret_cast<const std::uint32_t*>(c.xq + static_cast<std::size_t>(r0 + r) * k);
    const __m256i ones = _mm256_set1_epi16(1), flip = _mm256_set1_epi8(static_cast<char>(0x80));
    for (int i4 = 0; i4 < k / 4; ++i4) {
        const __m256i w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(panel + i4 * 4 * kLanes));
        const __m256i w1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(panel + i4 * 4 * kLanes + 32));
        for (int r = 0; r < R; ++r) {
            const __m256i centred = _mm256_xor_si256(_mm256_set1_epi32(static_cast<int>(x[r][i4])), flip);
            const __m256i magnitude = _mm256_abs_epi8(centred);
            acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(_mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(w0, centred)), ones));
            acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(_mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(w1, centred)), ones));
        }
    }
    const int col = p * kLanes;
    const int n = std::min(kLanes, w.out() - col);
    for (int h = 0; h < 2; ++h) {
        const __m256i sum = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w.columnSum() + col + 8 * h));
        const __m256 columnSum = _mm256_cvtepi32_ps(sum);
        const __m256i recentre = _mm256_slli_epi32(sum, 7); // 128 x the column sum
        const __m256 scale = _mm256_loadu_ps(w.scale() + col + 8 * h);
        for (int r = 0; r < R; ++r) {
            const __m256 total = _mm256_cvtepi32_ps(_mm256_add_epi32(acc[r][h], recentre));
            const __m256 lowPart = _mm256_mul_ps(_mm256_set1_ps(c.xLow[r0 + r]), columnSum);
            const __m256 v = _mm256_fmadd_ps(_mm256_set1_ps(c.xScale[r0 + r]), total, lowPart);
            float* y = c.y + static_cast<std::size_t>(r0 + r) * c.ldy + col + 8 * h;
            if (n > 8 * h) storeEight(y, w.bias() + col + 8 * h, _mm256_mul_ps(scale, v), n - 8 * h, c.accumulate);
        }
    }
}

COUPLET_AVX2 void runInt8Avx2(const PackedLinear& w, const LinearCall& c)
{
    for (int p = c.panelBegin; p < c.panelEnd; ++p) {
        int r0 = 0;
        for (; r0 + 4 <= c.rows; r0 += 4) int8TileAvx2<4>(w, c, r0, p);
        switch (c.rows - r0) {
        case 3: int8TileAvx2<3>(w, c, r0, p); break;
        case 2: int8TileAvx2<2>(w, c, r0, p); break;
        case 1: int8TileAvx2<1>(w, c, r0, p); break;
        default: break;
        }
    }
}

COUPLET_AVX2 void int8QuantizeAvx2(const float* x, int rows, int k, std::uint8_t* out, float* scale, float* low)
{
    for (int r = 0; r < rows; ++r) {
        const float* xr = x + static_cast<std::size_t>(r) * k;
        std::uint8_t* q = out + static_cast<std::size_t>(r) * k;
        __m256 lo = _mm256_set1_ps(xr[0]), hi = lo;
        int i = 0;
        for (; i + 8 <= k; i += 8) {
            const __m256 v = _mm256_loadu_ps(xr + i);
            lo = _mm256_min_ps(lo, v);
            hi = _mm256_max_ps(hi, v);
        }
        alignas(32) float los[8], his[8];
        _mm256_store_ps(los, lo);
        _mm256_store_ps(his, hi);
        const float s = rowStep(xr, i, k, *std::min_element(los, los + 8), *std::max_element(his, his + 8), scale[r], low[r]);
        const __m256 inv = _mm256_set1_ps(1.0f / s), base = _mm256_set1_ps(low[r]);
        for (i = 0; i + 8 <= k; i += 8) {
            __m256i v = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(xr + i), base), inv));
            v = _mm256_min_epi32(_mm256_max_epi32(v, _mm256_setzero_si256()), _mm256_set1_epi32(255));
            // 8 int32 -> 8 bytes: pack to int16, then to unsigned bytes (in range, so no saturation).
            const __m128i w16 = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
            _mm_storel_epi64(reinterpret_cast<__m128i*>(q + i), _mm_packus_epi16(w16, w16));
        }
        quantizeTail(xr, q, i, k, low[r], s);
    }
}

template <bool Bf16>
COUPLET_AVX2 void runAvx2(const PackedLinear& w, const LinearCall& c)
{
    // One row: 4 panels (8 accumulators, each weight read once, from
    // memory); two rows: 2 panels; more: 6 rows of one panel (12
    // accumulators, enough to cover the FMA latency at two a cycle, and the
    // panel's 2 weight registers reused by the 6 rows).
    if (c.rows == 1) {
        int p0 = c.panelBegin;
        for (; p0 + 4 <= c.panelEnd; p0 += 4) avx2Tile<1, 4, Bf16>(w, c, 0, p0);
        for (; p0 < c.panelEnd; ++p0) avx2Tile<1, 1, Bf16>(w, c, 0, p0);
        return;
    }
    if (c.rows == 2) {
        int p0 = c.panelBegin;
        for (; p0 + 2 <= c.panelEnd; p0 += 2) avx2Tile<2, 2, Bf16>(w, c, 0, p0);
        for (; p0 < c.panelEnd; ++p0) avx2Tile<2, 1, Bf16>(w, c, 0, p0);
        return;
    }
    // bf16 keeps two accumulators and two broadcasts a row live: 2 rows.
    constexpr int kRows = Bf16 ? 2 : 6;
    for (int p0 = c.panelBegin; p0 < c.panelEnd; ++p0) {
        int r0 = 0;
        for (; r0 + kRows <= c.rows; r0 += kRows) avx2Tile<kRows, 1, Bf16>(w, c, r0, p0);
        switch (c.rows - r0) {
        case 5: avx2Tile<5, 1, Bf16>(w, c, r0, p0); break;
        case 4: avx2Tile<4, 1, Bf16>(w, c, r0, p0); break;
        case 3: avx2Tile<3, 1, Bf16>(w, c, r0, p0); break;
        case 2: avx2Tile<2, 1, Bf16>(w, c, r0, p0); break;
        case 1: avx2Tile<1, 1, Bf16>(w, c, r0, p0); break;
        default: break;
        }
    }
}

using TileFn = void (*)(const PackedLinear&, const LinearCall&, int, int);


template <int R, int P>
struct Avx512Entry {
    static void run(const PackedLinear& w, const LinearCall& c, int r0, int p0) { avx512Tile<R, P>(w, c, r0, p0); }
};
template <int R, int P>
struct Bf16Entry {
    static void run(const PackedLinear& w, const LinearCall& c, int r0, int p0) { bf16Tile<R, P>(w, c, r0, p0); }
};

template <int R, int P>
struct Int8Entry {
    static void run(const PackedLinear& w, const LinearCall& c, int r0, int p0) { int8Tile<R, P>(w, c, r0, p0); }
};

template <template <int, int> class E>
TileFn tileFor(int r, int p)
{
    static const TileFn table[kRowTile][kPanelTile] = {
        {E<1, 1>::run, E<1, 2>::run, E<1, 3>::run, E<1, 4>::run},
        {E<2, 1>::run, E<2, 2>::run, E<2, 3>::run, E<2, 4>::run},
        {E<3, 1>::run, E<3, 2>::run, E<3, 3>::run, E<3, 4>::run},
        {E<4, 1>::run, E<4, 2>::run, E<4, 3>::run, E<4, 4>::run},
    };
    return table[r - 1][p - 1];
}

COUPLET_AVX512BF16 void bf16Round(const float* x, std::uint16_t* out, int count)
{
    int i = 0;
    for (; i + 32 <= count; i += 32) {
        const __m512bh v = _mm512_cvtne2ps_pbh(_mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(x + i));
        _mm512_storeu_si512(out + i, (__m512i)v);
    }
    for (; i < count; ++i) out[i] = toBf16(x[i]);
}

// toBf16 8 at a time: round to nearest even by integer arithmetic, a NaN
// kept a NaN (quiet bit set), then the upper halves packed.
COUPLET_AVX2 void bf16RoundAvx2(const float* x, std::uint16_t* out, int count)
{
    const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(0x7fff);
    const __m256i magnitude = _mm256_set1_epi32(0x7fffffff), infinity = _mm256_set1_epi32(0x7f800000);
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256i bits = _mm256_castps_si256(_mm256_loadu_ps(x + i));
        const __m256i rounded = _mm256_add_epi32(bits, _mm256_add_epi32(bias, _mm256_and_si256(_mm256_srli_epi32(bits, 16), one)));
        const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(bits, magnitude), infinity);
        const __m256i quiet = _mm256_or_si256(bits, _mm256_set1_epi32(0x400000));
        const __m256i high = _mm256_srli_epi32(_mm256_blendv_epi8(rounded, quiet, nan), 16);
        const __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(high), _mm256_extracti128_si256(high, 1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), packed);
    }
    for (; i < count; ++i) out[i] = toBf16(x[i]);
}

#endif // COUPLET_X86_KERNELS

} // namespace

CpuKernels CpuKernels::detect()
{
    const CpuFeatures& cpu = CpuFeatures::host();
    CpuKernels k;
    k.avx2 = cpu.avx2;
    k.avx512 = cpu.avx512bwvl;
    k.avx512bf16 = cpu.avx512bf16;
    k.avx512vnni = cpu.avx512vnni;
    return k;
}

CpuKernels CpuKernels::avx2Only()
{
    CpuKernels k;
    k.avx2 = CpuFeatures::host().avx2;
    return k;
}

const char* kernelName(NativePrecision p, const CpuKernels& cpu)
{
    if (p == NativePrecision::Bf16) return cpu.avx512bf16 ? "avx512-bf16" : cpu.avx2 ? "avx2-bf16" : "portable";
    if (p == NativePrecision::Int8) return cpu.avx512vnni ? "avx512-vnni" : cpu.avx2 ? "avx2-int8" : "portable";
    return cpu.avx512 ? "avx512" : cpu.avx2 ? "avx2" : "portable";
}

bool usesBf16Activations(const CpuKernels& cpu)
{
    return cpu.avx512bf16 || !cpu.avx2;
}

void runLinear(const CpuKernels& cpu, const PackedLinear& w, const LinearCall& c)
{
#ifdef COUPLET_X86_KERNELS
    const NativePrecision precision = w.precision();
    const bool fast = precision == NativePrecision::Fp32 ? cpu.avx512
        : precision == NativePrecision::Bf16             ? cpu.avx512bf16
                                                         : cpu.avx512vnni;
    if (fast) {
        for (int p0 = c.panelBegin; p0 < c.panelEnd; p0 += kPanelTile) {
            const int p = std::min(kPanelTile, c.panelEnd - p0);
            for (int r0 = 0; r0 < c.rows; r0 += kRowTile) {
                const int r = std::min(kRowTile, c.rows - r0);
                const TileFn tile = precision == NativePrecision::Bf16 ? tileFor<Bf16Entry>(r, p)
                    : precision == NativePrecision::Int8               ? tileFor<Int8Entry>(r, p)
                                                                       : tileFor<Avx512Entry>(r, p);
                tile(w, c, r0, p0);
            }
        }
        return;
    }
    if (cpu.avx2) {
        if (precision == NativePrecision::Bf16) runAvx2<true>(w, c);
        else if (precision == NativePrecision::Int8) runInt8Avx2(w, c);
        else runAvx2<false>(w, c);
        return;
    }
#endif
    (void)cpu;
    for (int p = c.panelBegin; p < c.panelEnd; ++p)
        for (int r0 = 0; r0 < c.rows; r0 += kRowTile) portableTile(w, c, r0, std::min(kRowTile, c.rows - r0), p);
}

void roundToBf16(const CpuKernels& cpu, const float* x, std::uint16_t* out, int count)
{
#ifdef COUPLET_X86_KERNELS
    if (cpu.avx512bf16) {
        bf16Round(x, out, count);
        return;
    }
    if (cpu.avx2) {
        bf16RoundAvx2(x, out, count);
        return;
    }
#endif
    (void)cpu;
    for (int i = 0; i < count; ++i) out[i] = toBf16(x[i]);
}

void quantizeRows(const CpuKernels& cpu, const float* x, int rows, int k, std::uint8_t* out, float* scale, float* low)
{
#ifdef COUPLET_X86_KERNELS
    if (cpu.avx512) {
        int8Quantize(x, rows, k, out, scale, low);
        return;
    }
    if (cpu.avx2) {
        int8QuantizeAvx2(x, rows, k, out, scale, low);
        return;
    }
#endif
    (void)cpu;
    for (int r = 0; r < rows; ++r) {
        const float* xr = x + static_cast<std::size_t>(r) * k;
        const float s = rowStep(xr, 0, k, xr[0], xr[0], scale[r], low[r]);
        quantizeTail(xr, out + static_cast<std::size_t>(r) * k, 0, k, low[r], s);
    }
}

void ActivationBuffers::reserve(int rows, int width)
{
    const auto values = static_cast<std::size_t>(rows) * static_cast<std::size_t>(width);
    if (bf16.size() < values) bf16.resize(values);
    if (int8.size() < values) int8.resize(values);
    if (rowQuant.size() < 2 * static_cast<std::size_t>(rows)) rowQuant.resize(2 * static_cast<std::size_t>(rows));
}

void linearProduct(const CpuKernels& cpu, const PackedLinear& w, const float* x, int rows, float* y, int ldy,
                   bool accumulate, ActivationBuffers& buffers)
{
    buffers.reserve(rows, w.in());
    LinearCall call;
    call.x = x;
    call.ldx = w.in();
    call.rows = rows;
    call.y = y;
    call.ldy = ldy;
    call.accumulate = accumulate;
    // Activations are converted on all the threads, rows split between them
    // (a batch-256 conversion on one thread left the others waiting).
    const std::size_t k = static_cast<std::size_t>(w.in());
    if (w.precision() == NativePrecision::Bf16 && usesBf16Activations(cpu)) {
        at::parallel_for(0, rows, kConvertGrain, [&](std::int64_t begin, std::int64_t end) {
            roundToBf16(cpu, x + begin * k, buffers.bf16.data() + begin * k, static_cast<int>((end - begin) * k));
        });
        call.xb = buffers.bf16.data();
    } else if (w.precision() == NativePrecision::Int8) {
        float* steps = buffers.rowQuant.data();
        at::parallel_for(0, rows, kConvertGrain, [&](std::int64_t begin, std::int64_t end) {
            quantizeRows(cpu, x + begin * k, static_cast<int>(end - begin), w.in(), buffers.int8.data() + begin * k,
                         steps + begin, steps + rows + begin);
        });
        call.xq = buffers.int8.data();
        call.xScale = steps;
        call.xLow = steps + rows;
    }
    at::parallel_for(0, w.panels(), kPanelGrain, [&](std::int64_t begin, std::int64_t end) {
        LinearCall part = call;
        part.panelBegin = static_cast<int>(begin);
        part.panelEnd = static_cast<int>(end);
        runLinear(cpu, w, part);
    });
}

} // namespace couplet
