#include "packed_linear.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace couplet {

const char* nameOf(NativePrecision p)
{
    return p == NativePrecision::Bf16 ? "bf16" : p == NativePrecision::Int8 ? "int8" : "fp32";
}

std::uint16_t toBf16(float v)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u); // NaN stays NaN
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<std::uint16_t>(bits >> 16);
}

float fromBf16(std::uint16_t v)
{
    const std::uint32_t bits = static_cast<std::uint32_t>(v) << 16;
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

PackedLinear::PackedLinear(const float* weight, const float* bias, int in, int out, NativePrecision precision)
    : m_in(in), m_out(out), m_precision(precision)
{
    if (in <= 0 || out <= 0) throw std::invalid_argument("PackedLinear: empty weight");
    if (precision == NativePrecision::Bf16 && in % 2 != 0)
        throw std::invalid_argument("PackedLinear: bf16 needs an even input width, got " + std::to_string(in));
    if (precision == NativePrecision::Int8 && in % 4 != 0)
        throw std::invalid_argument("PackedLinear: int8 needs an input width divisible by 4, got " + std::to_string(in));
    const int padded = panels() * kPanel;
    m_bias.assign(static_cast<std::size_t>(padded), 0.0f);
    if (bias) std::memcpy(m_bias.data(), bias, static_cast<std::size_t>(out) * sizeof(float));
    const auto at = [&](int o, int k) { return o < out ? weight[static_cast<std::size_t>(o) * in + k] : 0.0f; };
    if (precision == NativePrecision::Fp32) {
        m_f32.resize(static_cast<std::size_t>(padded) * in);
        for (int p = 0; p < panels(); ++p)
            for (int k = 0; k < in; ++k)
                for (int j = 0; j < kPanel; ++j)
                    m_f32[(static_cast<std::size_t>(p) * in + k) * kPanel + j] = at(p * kPanel + j, k);
    } else if (precision == NativePrecision::Int8) {
        m_i8.resize(static_cast<std::size_t>(padded) * in);
        m_scale.assign(static_cast<std::size_t>(padded), 1.0f);
        m_columnSum.assign(static_cast<std::size_t>(padded), 0);
        for (int o = 0; o < out; ++o) {
            float amax = 0;
            for (int k = 0; k < in; ++k) amax = std::max(amax, std::abs(at(o, k)));
            if (amax > 0) m_scale[static_cast<std::size_t>(o)] = amax / 127.0f;
        }
        for (int p = 0; p < panels(); ++p)
            for (int k4 = 0; k4 < in / 4; ++k4)
                for (int j = 0; j < kPanel; ++j)
                    for (int h = 0; h < 4; ++h) {
                        const int o = p * kPanel + j;
                        const float q = std::nearbyint(at(o, 4 * k4 + h) / m_scale[static_cast<std::size_t>(o)]);
                        const auto v = static_cast<std::int8_t>(std::clamp(q, -127.0f, 127.0f));
                        m_i8[((static_cast<std::size_t>(p) * (in / 4) + k4) * kPanel + j) * 4 + h] = v;
                        m_columnSum[static_cast<std::size_t>(o)] += v;
                    }
    } else {
        m_bf16.resize(static_cast<std::size_t>(padded) * in);
        for (int p = 0; p < panels(); ++p)
            for (int k2 = 0; k2 < in / 2; ++k2)
                for (int j = 0; j < kPanel; ++j)
                    for (int h = 0; h < 2; ++h)
                        m_bf16[((static_cast<std::size_t>(p) * (in / 2) + k2) * kPanel + j) * 2 + h]
                            = toBf16(at(p * kPanel + j, 2 * k2 + h));
    }
}

std::size_t PackedLinear::bytes() const
{
    return m_f32.size() * sizeof(float) + m_bf16.size() * sizeof(std::uint16_t) + m_i8.size()
        + (m_bias.size() + m_scale.size()) * sizeof(float) + m_columnSum.size() * sizeof(std::int32_t);
}

} // namespace couplet
