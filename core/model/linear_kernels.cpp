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
        float mn = _mm512_reduce_min_ps(lo), mx = _mm512_reduce_max_ps(hi);
        for (int j = i; j < k; ++j) {
            mn = std::min(mn, xr[j]);
            mx = std::max(mx, xr[j]);
        }
        const float s = mx > mn ? (mx - mn) / 255.0f : 1.0f;
        scale[r] = s;
        low[r] = mn;
        const __m512 inv = _mm512_set1_ps(1.0f / s), base = _mm512_set1_ps(mn);
        for (i = 0; i + 16 <= k; i += 16) {
            const __m512i v = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(xr + i), base), inv));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(q + i), _mm512_cvtusepi32_epi8(_mm512_max_epi32(v, _mm512_setzero_si512())));
        }
        for (; i < k; ++i) q[i] = static_cast<std::uint8_t>(std::clamp(std::nearbyint((xr[i] - mn) / s), 0.0f, 255.0f));
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

#endif // COUPLET_X86_KERNELS

} // namespace

CpuKernels CpuKernels::detect()
{
    const CpuFeatures& cpu = CpuFeatures::host();
    CpuKernels k;
    k.avx512 = cpu.avx512bwvl;
    k.avx512bf16 = cpu.avx512bf16;
    k.avx512vnni = cpu.avx512vnni;
    return k;
}

const char* kernelName(NativePrecision p, const CpuKernels& cpu)
{
    if (p == NativePrecision::Bf16) return cpu.avx512bf16 ? "avx512-bf16" : "portable";
    if (p == NativePrecision::Int8) return cpu.avx512vnni ? "avx512-vnni" : "portable";
    return cpu.avx512 ? "avx512" : "portable";
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
#endif
    (void)cpu;
    for (int r = 0; r < rows; ++r) {
        const float* xr = x + static_cast<std::size_t>(r) * k;
        const auto [mn, mx] = std::minmax_element(xr, xr + k);
        const float s = *mx > *mn ? (*mx - *mn) / 255.0f : 1.0f;
        scale[r] = s;
        low[r] = *mn;
        for (int i = 0; i < k; ++i)
            out[static_cast<std::size_t>(r) * k + i] = static_cast<std::uint8_t>(std::clamp(std::nearbyint((xr[i] - *mn) / s), 0.0f, 255.0f));
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
    if (w.precision() == NativePrecision::Bf16) {
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
