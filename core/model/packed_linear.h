#pragma once

#include <cstdint>
#include <vector>

namespace couplet {

// Weight precision of the native CPU decoder. Int8: weights quantised per
// output column (symmetric, scale max|w| / 127), activations per row at run
// time (dynamic, asymmetric: min to max in 255 steps), products in int32
// (vpdpbusd), rescaled to fp32.
enum class NativePrecision { Fp32, Bf16, Int8 };

const char* nameOf(NativePrecision p);

// The weights of one linear layer y = x W^T + b, packed once for the CPU
// kernels: the output columns in panels of 16, each panel stored k-major
// ([k][16] floats for fp32; [k/2][16][2] bf16 pairs for bf16, the layout
// vdpbf16ps reads; [k/4][16][4] signed bytes for int8, the layout vpdpbusd
// reads), so that a kernel streams each weight exactly once and nothing is
// repacked per call. The last panel is padded with zeros.
class PackedLinear {
public:
    static constexpr int kPanel = 16;

    PackedLinear() = default;
    // weight: out x in, row-major (torch's nn.Linear layout); bias may be null.
    PackedLinear(const float* weight, const float* bias, int in, int out, NativePrecision precision);

    int in() const { return m_in; }
    int out() const { return m_out; }
    int panels() const { return (m_out + kPanel - 1) / kPanel; }
    NativePrecision precision() const { return m_precision; }
    const float* bias() const { return m_bias.data(); }            // panels() * 16
    const float* panelF32(int p) const { return m_f32.data() + static_cast<std::size_t>(p) * m_in * kPanel; }
    const std::uint16_t* panelBf16(int p) const { return m_bf16.data() + static_cast<std::size_t>(p) * m_in * kPanel; }
    const std::int8_t* panelInt8(int p) const { return m_i8.data() + static_cast<std::size_t>(p) * m_in * kPanel; }
    // Int8: each column's scale, and the sum of its quantised weights (it
    // carries the activations' row minimum: x = scale x q + min). panels() * 16 each.
    const float* scale() const { return m_scale.data(); }
    const std::int32_t* columnSum() const { return m_columnSum.data(); }
    std::size_t bytes() const;

private:
    int m_in = 0;
    int m_out = 0;
    NativePrecision m_precision = NativePrecision::Fp32;
    std::vector<float> m_bias;
    std::vector<float> m_f32;
    std::vector<std::uint16_t> m_bf16;
    std::vector<std::int8_t> m_i8;
    std::vector<float> m_scale;
    std::vector<std::int32_t> m_columnSum;
};

// Round-to-nearest-even fp32 -> bf16, as the hardware conversion does.
std::uint16_t toBf16(float v);
float fromBf16(std::uint16_t v);

} // namespace couplet
