// NativeDecoder against TorchDecoder on the same weights: the same logits
// (fp32 within 1e-4) through prefill, decode, row copies and cache growth,
// on the AVX-512 kernels where the CPU has them and on the portable ones;
// bf16 and int8 close to fp32, and each the same on both kernel sets (their
// keys and values are kept in bf16: attention, row copies and cache growth
// on bf16 rows are in the same traffic).

#include "tiny_model.h"

#include "linear_kernels.h"
#include "native_decoder.h"
#include "packed_linear.h"
#include "torch_decoder.h"
#include "vector_ops.h"

#include <check.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

using namespace couplet;

namespace {

// A tiny model with a vocabulary that is not a multiple of 16, so the last
// output panel is partly padding.
Lm tinyLm(int vocab = 83)
{
    torch::manual_seed(11);
    Lm lm(testing::tinyConfig(vocab));
    lm->eval();
    // Non-trivial LayerNorm parameters and biases, which the init leaves at 1 and 0.
    torch::NoGradGuard guard;
    for (auto& p : lm->named_parameters())
        if (p.key().find("ln") != std::string::npos || p.key().find("bias") != std::string::npos)
            p.value().add_(torch::randn_like(p.value()) * 0.1);
    return lm;
}

double maxDiff(const std::vector<float>& a, const std::vector<float>& b)
{
    CHECK_EQ(a.size(), b.size());
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
    return m;
}

int token(int row, int step, int vocab) { return 3 + (row * 37 + step * 11) % (vocab - 3); }

// Runs the same traffic through both decoders and returns the largest logit
// difference seen: three prompts of different lengths, then steps where
// rows finish (and the last row is compacted into a freed one) and the
// cache grows.
double largestDifference(Decoder& a, Decoder& b)
{
    const int vocab = a.vocabSize();
    double worst = 0;
    std::vector<float> la, lb;
    for (Decoder* d : {&a, &b}) d->reserveRows(3);
    std::vector<PrefillItem> prompts;
    const int lengths[] = {5, 1, 12};
    for (int r = 0; r < 3; ++r) {
        PrefillItem item{r, {}};
        for (int j = 0; j < lengths[r]; ++j) item.tokens.push_back(token(r, j, vocab));
        prompts.push_back(item);
    }
    a.prefill(prompts, la);
    b.prefill(prompts, lb);
    worst = std::max(worst, maxDiff(la, lb));
    std::vector<int> position = {5, 1, 12};
    for (int step = 0; step < 8; ++step) {
        if (step == 4) {
            // Row 0 finished: row 2 moves into it, then the cache grows.
            for (Decoder* d : {&a, &b}) {
                d->copyRow(2, 0, position[2]);
                d->reserveRows(5);
            }
            position = {position[2], position[1]};
        }
        std::vector<DecodeItem> items;
        for (int r = 0; r < static_cast<int>(position.size()); ++r)
            items.push_back({r, token(r, step + 20, vocab), position[static_cast<std::size_t>(r)]++});
        a.decode(items, la);
        b.decode(items, lb);
        worst = std::max(worst, maxDiff(la, lb));
    }
    return worst;
}

} // namespace

COUPLET_TEST(fp32MatchesLibtorchOnTheFastKernels)
{
    Lm lm = tinyLm();
    TorchDecoder reference(lm, torch::kCPU);
    NativeDecoder native(lm->config(), nativeWeightsOf(*lm), NativePrecision::Fp32);
    const double d = largestDifference(reference, native);
    std::cout << "fp32 " << native.kernelName() << " kernels: largest logit difference " << d << '\n';
    CHECK(d < 1e-4);
}

COUPLET_TEST(fp32MatchesLibtorchOnThePortableKernels)
{
    Lm lm = tinyLm();
    TorchDecoder reference(lm, torch::kCPU);
    NativeDecoder native(lm->config(), nativeWeightsOf(*lm), NativePrecision::Fp32, CpuKernels::portable());
    CHECK_EQ(native.kernelName(), std::string("portable"));
    const double d = largestDifference(reference, native);
    std::cout << "fp32 portable kernels: largest logit difference " << d << '\n';
    CHECK(d < 1e-4);
}

// The AVX2 kernels (what a CPU without AVX-512 runs), wherever this CPU has AVX2.
COUPLET_TEST(fp32MatchesLibtorchOnTheAvx2Kernels)
{
    if (!CpuKernels::avx2Only().avx2) {
        std::cout << "no AVX2 on this CPU: nothing to compare\n";
        return;
    }
    Lm lm = tinyLm();
    TorchDecoder reference(lm, torch::kCPU);
    NativeDecoder native(lm->config(), nativeWeightsOf(*lm), NativePrecision::Fp32, CpuKernels::avx2Only());
    CHECK_EQ(native.kernelName(), std::string("avx2"));
    const double d = largestDifference(reference, native);
    std::cout << "fp32 avx2 kernels: largest logit difference " << d << '\n';
    CHECK(d < 1e-4);
}

namespace {

struct Tolerances {
    double toFp32;      // largest logit difference from the fp32 decoder
    double kernels;     // between the fast and the portable kernels
    double weightShare; // packed weights, as a share of fp32's
};

// A reduced precision against fp32 (loosely: the shipped model's greedy
// output is compared in test_native_precision) and its fast kernels against
// its portable ones (tightly: they compute the same products).
void checkPrecision(NativePrecision precision, Tolerances t)
{
    Lm lm = tinyLm();
    const WeightMap w = nativeWeightsOf(*lm);
    NativeDecoder fp32(lm->config(), w, NativePrecision::Fp32);
    NativeDecoder fast(lm->config(), w, precision);
    NativeDecoder portable(lm->config(), w, precision, CpuKernels::portable());
    const double toFp32 = largestDifference(fp32, fast);
    const double kernels = largestDifference(fast, portable);
    std::cout << nameOf(precision) << " (" << fast.kernelName() << ") vs fp32: " << toFp32 << "; vs portable: " << kernels
              << '\n';
    CHECK(toFp32 < t.toFp32);
    // The AVX2 bf16 kernels multiply the fp32 activations, not bf16-rounded
    // ones: they are compared with fp32 only (and, product by product, in
    // avx2ProductsMatchAReference).
    const bool sameRounding = precision != NativePrecision::Bf16
        || usesBf16Activations(CpuKernels::detect()) == usesBf16Activations(CpuKernels::portable());
    if (sameRounding) CHECK(kernels < t.kernels);
    CHECK(fast.weightBytes() < fp32.weightBytes() * t.weightShare);
    CHECK_EQ(fast.bytesPerRow() * 2, fp32.bytesPerRow()); // bf16 keys and values
    if (CpuKernels::avx2Only().avx2) {
        NativeDecoder avx2(lm->config(), w, precision, CpuKernels::avx2Only());
        const double d = largestDifference(fp32, avx2);
        std::cout << nameOf(precision) << " (" << avx2.kernelName() << ") vs fp32: " << d << '\n';
        CHECK(d < t.toFp32);
    }
}

// y = x W^T + b in double from the weights as `precision` stores them
// (bf16: rounded), added to y0 where `accumulate`.
std::vector<float> referenceProduct(const std::vector<float>& weight, const std::vector<float>& bias,
                                    const std::vector<float>& x, int rows, int in, int out, NativePrecision precision,
                                    const std::vector<float>& y0, bool accumulate)
{
    std::vector<float> y(static_cast<std::size_t>(rows) * out);
    for (int r = 0; r < rows; ++r)
        for (int o = 0; o < out; ++o) {
            double sum = bias[static_cast<std::size_t>(o)];
            for (int k = 0; k < in; ++k) {
                float wv = weight[static_cast<std::size_t>(o) * in + k];
                if (precision == NativePrecision::Bf16) wv = fromBf16(toBf16(wv));
                sum += static_cast<double>(wv) * x[static_cast<std::size_t>(r) * in + k];
            }
            const std::size_t i = static_cast<std::size_t>(r) * out + o;
            y[i] = static_cast<float>(sum + (accumulate ? y0[i] : 0.0));
        }
    return y;
}

} // namespace

// The int8 product as its kernels define it: activations and weights
// dequantised (x = low + step q, w = column scale x q) and multiplied in double.
std::vector<float> int8Reference(const PackedLinear& packed, const std::vector<std::uint8_t>& xq,
                                 const std::vector<float>& step, const std::vector<float>& low, int rows,
                                 const std::vector<float>& y0, bool accumulate)
{
    const int in = packed.in(), out = packed.out(), lanes = PackedLinear::kPanel;
    std::vector<float> y(static_cast<std::size_t>(rows) * out);
    for (int r = 0; r < rows; ++r)
        for (int o = 0; o < out; ++o) {
            const std::int8_t* panel = packed.panelInt8(o / lanes);
            double sum = packed.bias()[o];
            for (int k = 0; k < in; ++k) {
                const double xv = low[static_cast<std::size_t>(r)] + step[static_cast<std::size_t>(r)] * xq[static_cast<std::size_t>(r) * in + k];
                const double wv = packed.scale()[o] * panel[((k / 4) * lanes + o % lanes) * 4 + k % 4];
                sum += xv * wv;
            }
            const std::size_t i = static_cast<std::size_t>(r) * out + o;
            y[i] = static_cast<float>(sum + (accumulate ? y0[i] : 0.0));
        }
    return y;
}

// every row-tile shape they pick (6, 2 and 4 rows and their tails, the one- and two-row forms),
// every row-tile shape they pick (1, 2, 6 rows and the 1-5 row tails),
// a last panel that is partly padding, and both store modes.
COUPLET_TEST(avx2ProductsMatchAReference)
{
    const CpuKernels cpu = CpuKernels::avx2Only();
    if (!cpu.avx2) {
        std::cout << "no AVX2 on this CPU: nothing to compare\n";
        return;
    }
    torch::manual_seed(5);
    const int in = 48, out = 37 + 5 * PackedLinear::kPanel;
    const auto wt = torch::randn({out, in}), bt = torch::randn({out});
    const std::vector<float> weight(wt.data_ptr<float>(), wt.data_ptr<float>() + wt.numel());
    const std::vector<float> bias(bt.data_ptr<float>(), bt.data_ptr<float>() + bt.numel());
    int checked = 0;
    for (const NativePrecision precision : {NativePrecision::Fp32, NativePrecision::Bf16, NativePrecision::Int8}) {
        const PackedLinear packed(weight.data(), bias.data(), in, out, precision);
        for (const int rows : {1, 2, 3, 4, 5, 6, 7, 11, 12}) {
            const auto xt = torch::randn({rows, in});
            const std::vector<float> x(xt.data_ptr<float>(), xt.data_ptr<float>() + xt.numel());
            for (const bool accumulate : {false, true}) {
                std::vector<float> y(static_cast<std::size_t>(rows) * out);
                for (std::size_t i = 0; i < y.size(); ++i) y[i] = 0.01f * static_cast<float>(i % 7);
                std::vector<std::uint8_t> xq(x.size());
                std::vector<float> step(static_cast<std::size_t>(rows)), low(step.size());
                quantizeRows(cpu, x.data(), rows, in, xq.data(), step.data(), low.data());
                CHECK(*std::max_element(xq.begin(), xq.end()) == 255); // 8 bits: where vpmaddubsw's pair sums could saturate
                const std::vector<float> want = precision == NativePrecision::Int8
                    ? int8Reference(packed, xq, step, low, rows, y, accumulate)
                    : referenceProduct(weight, bias, x, rows, in, out, precision, y, accumulate);
                LinearCall call;
                call.xq = xq.data();
                call.xScale = step.data();
                call.xLow = low.data();
                call.x = x.data();
                call.ldx = in;
                call.rows = rows;
                call.y = y.data();
                call.ldy = out;
                call.accumulate = accumulate;
                call.panelEnd = packed.panels();
                runLinear(cpu, packed, call);
                CHECK(maxDiff(want, y) < 1e-4);
                ++checked;
            }
        }
    }
    CHECK_EQ(checked, 54);
}

// The AVX2 attention of one head against the portable one: head widths 8
// to 128, lengths around its 4- and 8-position blocks, fp32 and bf16 keys.
COUPLET_TEST(avx2AttentionMatchesPortable)
{
    if (!CpuKernels::avx2Only().avx2) {
        std::cout << "no AVX2 on this CPU: nothing to compare\n";
        return;
    }
    torch::manual_seed(4);
    int checked = 0;
    for (const int hd : {8, 16, 32, 64, 128}) {
        for (const int length : {1, 3, 4, 5, 7, 8, 9, 17, 96}) {
            const int stride = 2 * hd;
            const auto q = torch::randn({hd});
            const auto k = torch::randn({length, stride}) * 2;
            const auto v = torch::randn({length, stride});
            std::vector<std::uint16_t> kb(static_cast<std::size_t>(length * stride)), vb(kb.size());
            for (std::size_t i = 0; i < kb.size(); ++i) {
                kb[i] = toBf16(k.data_ptr<float>()[i]);
                vb[i] = toBf16(v.data_ptr<float>()[i]);
            }
            std::vector<float> scratch(static_cast<std::size_t>(length + 16)), want(hd), got(hd), wantB(hd), gotB(hd);
            attendHead(q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(), stride, hd, length, 0.125f,
                       scratch.data(), want.data(), VectorIsa::Portable);
            attendHead(q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(), stride, hd, length, 0.125f,
                       scratch.data(), got.data(), VectorIsa::Avx2);
            attendHead(q.data_ptr<float>(), kb.data(), vb.data(), stride, hd, length, 0.125f, scratch.data(),
                       wantB.data(), VectorIsa::Portable);
            attendHead(q.data_ptr<float>(), kb.data(), vb.data(), stride, hd, length, 0.125f, scratch.data(), gotB.data(),
                       VectorIsa::Avx2);
            const double d = std::max(maxDiff(want, got), maxDiff(wantB, gotB));
            if (d >= 1e-5) std::cout << "head width " << hd << ", length " << length << ": " << d << '\n';
            CHECK(d < 1e-5);
            ++checked;
        }
    }
    CHECK_EQ(checked, 45);
}

// The KV cache's bf16 rounding on each kernel set against toBf16: ties to
// even, both signs, infinities, NaNs (kept NaN), denormals, and a tail.
COUPLET_TEST(bf16RoundingMatchesToBf16OnEveryKernelSet)
{
    std::vector<float> x;
    for (int i = -600; i < 600; ++i) x.push_back(static_cast<float>(i) * 0.37f + 1.0f / 3.0f);
    for (const std::uint32_t bits : {0x3f808000u, 0x3f818000u, 0xbf808000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                     0x7f800001u, 0xffffffffu, 0x00000001u, 0x807fffffu, 0x7f7fffffu}) {
        float f;
        std::memcpy(&f, &bits, sizeof f);
        x.push_back(f);
    }
    for (const CpuKernels cpu : {CpuKernels::detect(), CpuKernels::avx2Only(), CpuKernels::portable()}) {
        std::vector<std::uint16_t> got(x.size());
        roundToBf16(cpu, x.data(), got.data(), static_cast<int>(x.size()));
        for (std::size_t i = 0; i < x.size(); ++i) CHECK_EQ(got[i], toBf16(x[i]));
    }
}

// GELU's AVX2 form against the portable loop, across its range and a tail.
COUPLET_TEST(avx2GeluMatchesPortable)
{
    if (!CpuKernels::avx2Only().avx2) {
        std::cout << "no AVX2 on this CPU: nothing to compare\n";
        return;
    }
    std::vector<float> a(1003);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = -9.0f + 0.018f * static_cast<float>(i);
    std::vector<float> b = a;
    geluInPlace(a.data(), static_cast<int>(a.size()), VectorIsa::Portable);
    geluInPlace(b.data(), static_cast<int>(b.size()), VectorIsa::Avx2);
    CHECK(maxDiff(a, b) < 1e-6);
    CHECK(std::abs(b[500] - 0.0f) < 1e-6); // x = 0
    CHECK(std::abs(b[1002] - 9.036f) < 1e-3); // GELU(x) = x for large x
}

// bf16 rounds weights and activations to bf16.
COUPLET_TEST(bf16KernelsAgreeAndStayCloseToFp32)
{
    checkPrecision(NativePrecision::Bf16, {0.05, 1e-4, 0.6});
}

// int8 quantises weights per column and activations per row; its VNNI and
// portable kernels sum the same integer products, so they agree up to the
// float rescale.
COUPLET_TEST(int8KernelsAgreeAndStayCloseToFp32)
{
    checkPrecision(NativePrecision::Int8, {0.1, 1e-3, 0.35});
}

// A product on a row of zeros, a row with one large value and a row of
// equal values: quantisation keeps the exact cases exact (a row's minimum
// and maximum map to 0 and 255; a constant row is its minimum) on each kernel set.
COUPLET_TEST(int8QuantisationHandlesEdgeRows)
{
    const int in = 32, out = 20;
    std::vector<float> weight(static_cast<std::size_t>(in) * out), bias(out);
    for (int o = 0; o < out; ++o) {
        bias[static_cast<std::size_t>(o)] = 0.5f * static_cast<float>(o);
        for (int k = 0; k < in; ++k) weight[static_cast<std::size_t>(o) * in + k] = (o == k % out) ? 1.0f : 0.0f;
    }
    const PackedLinear packed(weight.data(), bias.data(), in, out, NativePrecision::Int8);
    std::vector<float> x(3 * in, 0.0f);
    x[static_cast<std::size_t>(in) + 3] = -1000.0f;
    for (int k = 0; k < in; ++k) x[static_cast<std::size_t>(2 * in + k)] = 0.25f;
    for (const CpuKernels cpu : {CpuKernels::detect(), CpuKernels::avx2Only(), CpuKernels::portable()}) {
        std::vector<std::uint8_t> xq(x.size());
        std::vector<float> scale(3), low(3), y(3 * out, -1.0f);
        quantizeRows(cpu, x.data(), 3, in, xq.data(), scale.data(), low.data());
        CHECK_EQ(scale[0], 1.0f);
        CHECK_EQ(low[1], -1000.0f);
        CHECK_EQ(int(xq[static_cast<std::size_t>(in) + 3]), 0);   // the row's minimum
        CHECK_EQ(int(xq[static_cast<std::size_t>(in) + 4]), 255); // its maximum, 0
        LinearCall call;
        call.xq = xq.data();
        call.xScale = scale.data();
        call.xLow = low.data();
        call.rows = 3;
        call.ldx = in;
        call.y = y.data();
        call.ldy = out;
        call.panelEnd = packed.panels();
        runLinear(cpu, packed, call);
        for (int o = 0; o < out; ++o) {
            const float b = bias[static_cast<std::size_t>(o)];
            CHECK(std::abs(y[static_cast<std::size_t>(o)] - b) < 1e-6);
            // Row 1: only input 3 is set; columns 3 (k = 3) and none other see it.
            const float want1 = b + (o == 3 ? -1000.0f : 0.0f);
            CHECK(std::abs(y[static_cast<std::size_t>(out + o)] - want1) < 1e-3);
            // Row 2: column o sums inputs k with k % out == o: 2 of them for o < 12, else 1.
            const float want2 = b + 0.25f * (o < in - out ? 2.0f : 1.0f);
            CHECK(std::abs(y[static_cast<std::size_t>(2 * out + o)] - want2) < 1e-5);
        }
    }
}

COUPLET_TEST(badItemsAreRefusedWithAMessage)
{
    Lm lm = tinyLm();
    NativeDecoder d(lm->config(), nativeWeightsOf(*lm), NativePrecision::Fp32);
    d.reserveRows(2);
    std::vector<float> logits;
    const auto refuses = [&](auto&& call, const std::string& words) {
        try {
            call();
        } catch (const std::exception& e) {
            CHECK(std::string(e.what()).find(words) != std::string::npos);
            return;
        }
        CHECK(!"no exception");
    };
    refuses([&] { d.prefill(std::vector<PrefillItem>{{0, {}}}, logits); }, "empty prompt");
    refuses([&] { d.prefill(std::vector<PrefillItem>{{2, {4}}}, logits); }, "outside the cache");
    refuses([&] { d.prefill(std::vector<PrefillItem>{{0, {d.vocabSize()}}}, logits); }, "vocabulary");
    refuses([&] { d.decode(std::vector<DecodeItem>{{0, 4, d.maxSequenceLength()}}, logits); }, "maximum length");
    refuses([&] { d.decode(std::vector<DecodeItem>{{1, 4, 0}}, logits); }, "0..n-1");
    WeightMap missing = nativeWeightsOf(*lm);
    missing.erase("ln_f.bias");
    refuses([&] { NativeDecoder(lm->config(), missing, NativePrecision::Fp32); }, "ln_f.bias");
}

// The KV cache's memory: zeroed, resident (the rows' pages are there before
// the first step writes them), movable, and refused with bad_alloc, not a
// crash later, when the machine cannot hold it.
COUPLET_TEST(residentBufferIsThereOrRefused)
{
    const std::size_t floats = (std::size_t(3) << 20) + 5; // 12 MB and a bit: a partial huge page at the end
    ResidentBuffer b(floats);
    CHECK_EQ(b.size(), floats);
    CHECK(b.get() != nullptr);
    double sum = 0;
    for (std::size_t i = 0; i < floats; i += 1021) sum += b.get()[i];
    CHECK_EQ(sum, 0.0);
    b.get()[floats - 1] = 7.0f;
    ResidentBuffer moved = std::move(b);
    CHECK(b.get() == nullptr);
    CHECK_EQ(moved.get()[floats - 1], 7.0f);
    bool refused = false;
    try {
        ResidentBuffer huge(std::size_t(1) << 50); // 4 PiB
    } catch (const std::bad_alloc&) {
        refused = true;
    }
    CHECK(refused);
}

// The all-heads attention kernel against the per-head one, portable: model
// shapes (the shipped 256 wide, 4 heads) and the edges of its blocks (1 to
// 16 heads, lengths that do not fill a block), fp32 and bf16 keys.
COUPLET_TEST(allHeadsAttentionMatchesPerHeadAttention)
{
    if (!CpuKernels::detect().avx512) {
        std::cout << "no AVX-512 on this CPU: the all-heads kernel must decline\n";
        std::vector<float> x(64, 0.5f), s(64 * 4), o(64);
        CHECK(!attendAllHeads(x.data(), x.data(), x.data(), 64, 4, 1, 1.0f, s.data(), o.data(), VectorIsa::Avx2));
        return;
    }
    torch::manual_seed(3);
    int checked = 0;
    for (const auto& [width, heads] : {std::pair{256, 4}, std::pair{256, 16}, std::pair{256, 1}, std::pair{128, 8},
                                      std::pair{64, 2}, std::pair{32, 2}}) {
        for (const int length : {1, 3, 4, 5, 15, 16, 17, 37, 96}) {
            const auto q = torch::randn({width});
            const auto k = torch::randn({length, width}) * 2;
            const auto v = torch::randn({length, width});
            std::vector<std::uint16_t> kb(static_cast<std::size_t>(length * width)), vb(kb.size());
            for (std::size_t i = 0; i < kb.size(); ++i) {
                kb[i] = toBf16(k.data_ptr<float>()[i]);
                vb[i] = toBf16(v.data_ptr<float>()[i]);
            }
            const int hd = width / heads;
            std::vector<float> scratch(static_cast<std::size_t>((length + 16) * heads)), want(width), got(width),
                wantB(width), gotB(width);
            for (int h = 0; h < heads; ++h) {
                attendHead(q.data_ptr<float>() + h * hd, k.data_ptr<float>() + h * hd, v.data_ptr<float>() + h * hd, width,
                           hd, length, 0.125f, scratch.data(), want.data() + h * hd, VectorIsa::Portable);
                attendHead(q.data_ptr<float>() + h * hd, kb.data() + h * hd, vb.data() + h * hd, width, hd, length, 0.125f,
                           scratch.data(), wantB.data() + h * hd, VectorIsa::Portable);
            }
            CHECK(attendAllHeads(q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(), width, heads, length,
                                 0.125f, scratch.data(), got.data(), VectorIsa::Avx512));
            CHECK(attendAllHeads(q.data_ptr<float>(), kb.data(), vb.data(), width, heads, length, 0.125f, scratch.data(),
                                 gotB.data(), VectorIsa::Avx512));
            const double d = std::max(maxDiff(want, got), maxDiff(wantB, gotB));
            if (d >= 1e-5) std::cout << "width " << width << ", " << heads << " heads, length " << length << ": " << d << '\n';
            CHECK(d < 1e-5);
            ++checked;
        }
    }
    CHECK_EQ(checked, 54);
}
