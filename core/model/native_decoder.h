#pragma once

#include "decoder.h"
#include "linear_kernels.h"
#include "model_config.h"
#include "packed_linear.h"
#include "partner_track.h"
#include "resident_buffer.h"
#include "vector_ops.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace couplet {

// The float weights of a model by their safetensors names ("wte.weight",
// "blocks.0.attn.qkv.weight", ...), each row-major.
using WeightMap = std::map<std::string, std::vector<float>>;

// A Decoder for the CPU that calls its own kernels on weights packed once
// (fp32, bf16 or int8) and buffers allocated once, instead of dispatching about 70
// libtorch ops per step: at batch 1 to 8 the per-op cost, not the arithmetic,
// bounds a step of this small model. Same results as TorchDecoder within
// 1e-4 in fp32. Threads: libtorch's intra-op pool (at::parallel_for).
class NativeDecoder : public Decoder {
public:
    NativeDecoder(const ModelConfig& config, const WeightMap& weights, NativePrecision precision,
                  CpuKernels kernels = CpuKernels::detect());

    int vocabSize() const override { return m_config.vocabSize; }
    int maxSequenceLength() const override { return m_config.maxLen; }
    int rowCapacity() const override { return m_rows; }
    void reserveRows(int rows) override;
    void prefill(std::span<const PrefillItem> items, std::vector<float>& logits) override;
    void decode(std::span<const DecodeItem> items, std::vector<float>& logits) override;
    void copyRow(int from, int to, int length) override;
    // On libtorch's intra-op threads.
    void parallelFor(int n, const std::function<void(int, int)>& body) override;

    NativePrecision precision() const { return m_precision; }
    // Bytes of packed weights a decode step streams (the embedding tables,
    // of which a step reads one row per token, are not counted).
    std::size_t weightBytes() const;
    std::size_t bytesPerRow() const override;
    // "avx512-bf16", "avx512", "avx2-bf16", "avx2" or "portable": the kernels this decoder runs.
    std::string kernelName() const;

private:
    struct Layer {
        std::vector<float> ln1Gain, ln1Bias, ln2Gain, ln2Bias;
        PackedLinear qkv, proj, up, down;
    };
    // One token of a forward pass: its id, the KV row and position it is written at.
    struct Slot {
        int token = 0;
        int row = 0;
        int position = 0;
        int partner = -1; // partner embeddings: the 上联 token added at this input, -1 none
    };

    void ensureTokens(int tokens);
    std::size_t scoresPerToken() const; // attention scratch per token: all heads' scores, padded
    void forward(int tokens);
    void addPartners(int tokens);
    void attention(int layer, int tokens);
    void product(const PackedLinear& w, const float* x, int rows, float* y, int ldy, bool accumulate);
    void outputLogits(int rows, std::vector<float>& logits);
    // Keys of `row` at `layer` ([maxLen][dim] of T), then its values.
    template <typename T>
    T* keys(int row, int layer)
    {
        return reinterpret_cast<T*>(m_cache.get()) + cacheOffset(row, layer);
    }
    template <typename T>
    T* values(int row, int layer)
    {
        return keys<T>(row, layer) + static_cast<std::size_t>(m_config.maxLen) * m_config.dim;
    }
    std::size_t cacheOffset(int row, int layer) const; // in elements
    std::size_t cacheElementBytes() const { return m_halfCache ? sizeof(std::uint16_t) : sizeof(float); }
    template <typename T>
    void attendAll(int layer, int tokens);
    // The vector forms of attention and GELU for m_kernels.
    VectorIsa vectorIsa() const
    {
        return m_kernels.avx512 ? VectorIsa::Avx512 : m_kernels.avx2 ? VectorIsa::Avx2 : VectorIsa::Portable;
    }

    ModelConfig m_config;
    NativePrecision m_precision;
    CpuKernels m_kernels;
    std::vector<float> m_tokenEmbedding;    // vocab x dim
    std::vector<float> m_positionEmbedding; // maxLen x dim
    std::vector<Layer> m_layers;
    std::vector<float> m_lnFinalGain, m_lnFinalBias;
    PackedLinear m_output;                  // tied: the token embedding
    // Partner embeddings (ModelConfig::partners): P, and each row's 上联 and
    // <down> as its tokens came in. Empty without.
    PackedLinear m_partner;
    std::vector<PartnerTrack> m_partners;

    int m_rows = 0;
    // Keys and values in bf16 at the bf16 and int8 precisions: half the
    // bytes the attention reads (at batch 256 more than the last-level
    // cache holds in fp32). fp32 keeps fp32, to match libtorch within 1e-4.
    bool m_halfCache = false;
    // rows x layers x {k, v} x maxLen x dim, resident from reserveRows() on, so
    // that decode steps take no page faults (a position is always written
    // before a query reads it).
    ResidentBuffer m_cache;

    // Per-pass buffers, grown to the largest pass seen and then reused.
    int m_capacity = 0;
    std::vector<Slot> m_slots;
    std::vector<int> m_partnerAt; // addPartners(): the tokens that have a partner
    std::vector<float> m_x, m_h, m_qkv, m_att, m_up, m_scores;
    ActivationBuffers m_activations;
};

} // namespace couplet
