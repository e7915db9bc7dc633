#include "native_decoder.h"

#include "vector_ops.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <stdexcept>

namespace couplet {
namespace {

const std::vector<float>& weight(const WeightMap& w, const std::string& name, std::size_t size)
{
    const auto it = w.find(name);
    if (it == w.end()) throw std::invalid_argument("native decoder: the weights have no " + name);
    if (it->second.size() != size)
        throw std::invalid_argument("native decoder: " + name + " has " + std::to_string(it->second.size())
                                    + " values, the config needs " + std::to_string(size));
    return it->second;
}

PackedLinear linear(const WeightMap& w, const std::string& name, int in, int out, NativePrecision p)
{
    const auto& wt = weight(w, name + ".weight", static_cast<std::size_t>(in) * out);
    const auto& b = weight(w, name + ".bias", static_cast<std::size_t>(out));
    return PackedLinear(wt.data(), b.data(), in, out, p);
}

// Tokens per parallel chunk below which a loop stays on the calling thread.
constexpr int64_t kTokenGrain = 4;

} // namespace

NativeDecoder::NativeDecoder(const ModelConfig& config, const WeightMap& w, NativePrecision precision,
                             CpuKernels kernels)
    : m_config(config), m_precision(precision), m_kernels(kernels), m_halfCache(precision != NativePrecision::Fp32)
{
    config.validate();
    const int d = config.dim, f = config.mlpHidden;
    const auto vec = [&](const std::string& name, std::size_t n) { return weight(w, name, n); };
    m_tokenEmbedding = vec("wte.weight", static_cast<std::size_t>(config.vocabSize) * d);
    m_positionEmbedding = vec("wpe.weight", static_cast<std::size_t>(config.maxLen) * d);
    for (int l = 0; l < config.layers; ++l) {
        const std::string b = "blocks." + std::to_string(l) + ".";
        Layer layer;
        layer.ln1Gain = vec(b + "ln1.weight", d);
        layer.ln1Bias = vec(b + "ln1.bias", d);
        layer.ln2Gain = vec(b + "ln2.weight", d);
        layer.ln2Bias = vec(b + "ln2.bias", d);
        layer.qkv = linear(w, b + "attn.qkv", d, 3 * d, precision);
        layer.proj = linear(w, b + "attn.proj", d, d, precision);
        layer.up = linear(w, b + "mlp.up", d, f, precision);
        layer.down = linear(w, b + "mlp.down", f, d, precision);
        m_layers.push_back(std::move(layer));
    }
    m_lnFinalGain = vec("ln_f.weight", d);
    m_lnFinalBias = vec("ln_f.bias", d);
    m_output = PackedLinear(m_tokenEmbedding.data(), nullptr, d, config.vocabSize, precision);
    if (config.partners)
        m_partner = PackedLinear(vec("partner.weight", static_cast<std::size_t>(d) * d).data(), nullptr, d, d, precision);
}

std::string NativeDecoder::kernelName() const
{
    return couplet::kernelName(m_precision, m_kernels);
}

std::size_t NativeDecoder::weightBytes() const
{
    std::size_t bytes = m_output.bytes() + (m_config.partners ? m_partner.bytes() : 0);
    for (const auto& l : m_layers) bytes += l.qkv.bytes() + l.proj.bytes() + l.up.bytes() + l.down.bytes();
    return bytes;
}

std::size_t NativeDecoder::bytesPerRow() const
{
    return static_cast<std::size_t>(m_config.layers) * 2 * m_config.maxLen * m_config.dim * cacheElementBytes();
}

std::size_t NativeDecoder::cacheOffset(int row, int layer) const
{
    const std::size_t perLayer = static_cast<std::size_t>(2) * m_config.maxLen * m_config.dim;
    return (static_cast<std::size_t>(row) * m_config.layers + layer) * perLayer;
}

void NativeDecoder::reserveRows(int rows)
{
    if (rows == m_rows) return;
    const std::size_t perRow = (bytesPerRow() + sizeof(float) - 1) / sizeof(float); // the buffer's floats
    for (int tryRows = rows; tryRows > 0; tryRows /= 2) {
        try {
            ResidentBuffer fresh(perRow * static_cast<std::size_t>(tryRows));
            const int keep = std::min(tryRows, m_rows);
            if (keep > 0) std::copy_n(m_cache.get(), perRow * static_cast<std::size_t>(keep), fresh.get());
            m_cache = std::move(fresh);
            m_rows = tryRows;
            if (m_config.partners) m_partners.resize(static_cast<std::size_t>(tryRows));
            break;
        } catch (const std::bad_alloc&) {
            // halve until the memory holds it
        }
    }
    if (m_rows != rows) throw OutOfDeviceMemory{m_rows};
}

void NativeDecoder::copyRow(int from, int to, int length)
{
    if (from == to || length <= 0) return;
    if (m_config.partners) m_partners[static_cast<std::size_t>(to)] = m_partners[static_cast<std::size_t>(from)];
    const std::size_t n = static_cast<std::size_t>(length) * m_config.dim;
    const auto copy = [&](auto tag) {
        using T = decltype(tag);
        for (int l = 0; l < m_config.layers; ++l) {
            std::memcpy(keys<T>(to, l), keys<T>(from, l), n * sizeof(T));
            std::memcpy(values<T>(to, l), values<T>(from, l), n * sizeof(T));
        }
    };
    if (m_halfCache) copy(std::uint16_t{});
    else copy(float{});
}

void NativeDecoder::ensureTokens(int tokens)
{
    if (tokens <= m_capacity) return;
    const auto t = static_cast<std::size_t>(tokens);
    const auto d = static_cast<std::size_t>(m_config.dim);
    m_x.resize(t * d);
    m_h.resize(t * d);
    m_att.resize(t * d);
    m_qkv.resize(t * 3 * d);
    m_up.resize(t * static_cast<std::size_t>(m_config.mlpHidden));
    m_scores.resize(t * scoresPerToken());
    m_activations.reserve(tokens, std::max(m_config.dim, m_config.mlpHidden));
    m_capacity = tokens;
}

std::size_t NativeDecoder::scoresPerToken() const
{
    return static_cast<std::size_t>(m_config.maxLen + 16) * static_cast<std::size_t>(std::max(1, m_config.heads));
}

void NativeDecoder::product(const PackedLinear& w, const float* x, int rows, float* y, int ldy, bool accumulate)
{
    linearProduct(m_kernels, w, x, rows, y, ldy, accumulate, m_activations);
}

template <typename T>
void NativeDecoder::attendAll(int layer, int tokens)
{
    const int d = m_config.dim, heads = m_config.heads, hd = m_config.headDim();
    const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
    at::parallel_for(0, tokens, kTokenGrain, [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
            const Slot& s = m_slots[static_cast<std::size_t>(t)];
            const float* q = m_qkv.data() + t * 3 * d;
            const T* k = keys<T>(s.row, layer);
            const T* v = values<T>(s.row, layer);
            float* out = m_att.data() + t * d;
            float* scores = m_scores.data() + t * scoresPerToken();
            const int length = s.position + 1;
            if (attendAllHeads(q, k, v, d, heads, length, scale, scores, out, vectorIsa())) continue;
            for (int h = 0; h < heads; ++h)
                attendHead(q + h * hd, k + h * hd, v + h * hd, d, hd, length, scale, scores, out + h * hd, vectorIsa());
        }
    });
}

void NativeDecoder::attention(int layer, int tokens)
{
    if (m_halfCache) attendAll<std::uint16_t>(layer, tokens);
    else attendAll<float>(layer, tokens);
}

void NativeDecoder::forward(int tokens)
{
    const int d = m_config.dim;
    const auto norm = [&](const std::vector<float>& gain, const std::vector<float>& bias) {
        at::parallel_for(0, tokens, kTokenGrain * 4, [&](int64_t b, int64_t e) {
            for (int64_t t = b; t < e; ++t) layerNorm(m_x.data() + t * d, gain.data(), bias.data(), m_h.data() + t * d, d);
        });
    };
    for (int t = 0; t < tokens; ++t) {
        const Slot& s = m_slots[static_cast<std::size_t>(t)];
        const float* te = m_tokenEmbedding.data() + static_cast<std::size_t>(s.token) * d;
        const float* pe = m_positionEmbedding.data() + static_cast<std::size_t>(s.position) * d;
        float* x = m_x.data() + static_cast<std::size_t>(t) * d;
        for (int i = 0; i < d; ++i) x[i] = te[i] + pe[i];
    }
    if (m_config.partners) addPartners(tokens);
    for (int l = 0; l < m_config.layers; ++l) {
        Layer& layer = m_layers[static_cast<std::size_t>(l)];
        norm(layer.ln1Gain, layer.ln1Bias);
        product(layer.qkv, m_h.data(), tokens, m_qkv.data(), 3 * d, false);
        // Each token writes its own position: the threads never share one.
        at::parallel_for(0, tokens, kTokenGrain * 8, [&](int64_t b, int64_t e) {
            for (int64_t t = b; t < e; ++t) {
                const Slot& s = m_slots[static_cast<std::size_t>(t)];
                const float* qkv = m_qkv.data() + static_cast<std::size_t>(t) * 3 * d;
                const std::size_t at = static_cast<std::size_t>(s.position) * d;
                if (m_halfCache) {
                    roundToBf16(m_kernels, qkv + d, keys<std::uint16_t>(s.row, l) + at, d);
                    roundToBf16(m_kernels, qkv + 2 * d, values<std::uint16_t>(s.row, l) + at, d);
                } else {
                    std::memcpy(keys<float>(s.row, l) + at, qkv + d, d * sizeof(float));
                    std::memcpy(values<float>(s.row, l) + at, qkv + 2 * d, d * sizeof(float));
                }
            }
        });
        attention(l, tokens);
        product(layer.proj, m_att.data(), tokens, m_x.data(), d, true);
        norm(layer.ln2Gain, layer.ln2Bias);
        product(layer.up, m_h.data(), tokens, m_up.data(), m_config.mlpHidden, false);
        at::parallel_for(0, tokens, kTokenGrain, [&](int64_t b, int64_t e) {
            geluInPlace(m_up.data() + b * m_config.mlpHidden, static_cast<int>((e - b) * m_config.mlpHidden), vectorIsa());
        });
        product(layer.down, m_up.data(), tokens, m_x.data(), d, true);
    }
    norm(m_lnFinalGain, m_lnFinalBias);
}

// x += P · wte[partner] for the tokens that have a partner: their partner
// embeddings gathered in front of m_h, one product into m_att, added back.
void NativeDecoder::addPartners(int tokens)
{
    const std::size_t d = static_cast<std::size_t>(m_config.dim);
    std::vector<int>& at = m_partnerAt;
    at.clear();
    for (int t = 0; t < tokens; ++t) {
        const int partner = m_slots[static_cast<std::size_t>(t)].partner;
        if (partner < 0) continue;
        std::memcpy(m_h.data() + at.size() * d, m_tokenEmbedding.data() + static_cast<std::size_t>(partner) * d,
                    d * sizeof(float));
        at.push_back(t);
    }
    if (at.empty()) return;
    product(m_partner, m_h.data(), static_cast<int>(at.size()), m_att.data(), static_cast<int>(d), false);
    for (std::size_t i = 0; i < at.size(); ++i) {
        float* x = m_x.data() + static_cast<std::size_t>(at[i]) * d;
        const float* p = m_att.data() + i * d;
        for (std::size_t j = 0; j < d; ++j) x[j] += p[j];
    }
}

void NativeDecoder::outputLogits(int rows, std::vector<float>& logits)
{
    logits.resize(static_cast<std::size_t>(rows) * m_config.vocabSize);
    product(m_output, m_h.data(), rows, logits.data(), m_config.vocabSize, false);
}

void NativeDecoder::decode(std::span<const DecodeItem> items, std::vector<float>& logits)
{
    const int n = static_cast<int>(items.size());
    ensureTokens(n);
    m_slots.resize(items.size());
    for (int i = 0; i < n; ++i) {
        const auto& item = items[static_cast<std::size_t>(i)];
        if (item.row != i) throw std::logic_error("decode rows must be 0..n-1 in order");
        if (item.row >= m_rows) throw std::out_of_range("decode row outside the cache");
        if (item.position < 0 || item.position >= maxSequenceLength())
            throw std::out_of_range("position past the model's maximum length");
        if (item.token < 0 || item.token >= vocabSize()) throw std::out_of_range("token outside the vocabulary");
        const int partner = m_config.partners ? m_partners[static_cast<std::size_t>(i)].advance(item.token, item.position) : -1;
        m_slots[static_cast<std::size_t>(i)] = {item.token, item.row, item.position, partner};
    }
    forward(n);
    outputLogits(n, logits);
}

void NativeDecoder::prefill(std::span<const PrefillItem> items, std::vector<float>& logits)
{
    int tokens = 0;
    for (const auto& item : items) {
        if (item.tokens.empty()) throw std::invalid_argument("empty prompt");
        if (item.row < 0 || item.row >= m_rows) throw std::out_of_range("prefill row outside the cache");
        if (static_cast<int>(item.tokens.size()) > maxSequenceLength())
            throw std::out_of_range("prompt longer than the model's maximum length");
        tokens += static_cast<int>(item.tokens.size());
    }
    ensureTokens(std::max(tokens, static_cast<int>(items.size())));
    m_slots.clear();
    for (const auto& item : items) {
        PartnerTrack* track = m_config.partners ? &m_partners[static_cast<std::size_t>(item.row)] : nullptr;
        if (track) track->reset();
        for (std::size_t j = 0; j < item.tokens.size(); ++j) {
            if (item.tokens[j] < 0 || item.tokens[j] >= vocabSize()) throw std::out_of_range("token outside the vocabulary");
            const int position = static_cast<int>(j);
            m_slots.push_back({item.tokens[j], item.row, position, track ? track->advance(item.tokens[j], position) : -1});
        }
    }
    forward(tokens);
    // The last token of each prompt, gathered in front of m_h.
    const std::size_t d = static_cast<std::size_t>(m_config.dim);
    std::size_t at = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        at += items[i].tokens.size();
        std::memmove(m_h.data() + i * d, m_h.data() + (at - 1) * d, d * sizeof(float));
    }
    outputLogits(static_cast<int>(items.size()), logits);
}

void NativeDecoder::parallelFor(int n, const std::function<void(int, int)>& body)
{
    // A row's choice costs tens of microseconds: chunks of 4 rows pay for a thread.
    at::parallel_for(0, n, 4, [&](int64_t begin, int64_t end) { body(static_cast<int>(begin), static_cast<int>(end)); });
}

} // namespace couplet
