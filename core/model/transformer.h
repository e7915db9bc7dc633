#pragma once

#include "model_config.h"

#include <torch/torch.h>

#include <vector>

namespace couplet {

// Keys and values of every layer for a set of rows (one row per running
// sequence): k[layer], v[layer] are [rows, heads, maxLen, headDim].
struct KvCache {
    std::vector<torch::Tensor> k;
    std::vector<torch::Tensor> v;
    int rows() const { return k.empty() ? 0 : static_cast<int>(k[0].size(0)); }
};

// How an attention layer is used in one forward pass.
struct AttentionContext {
    enum class Mode { Full, Prefill, Decode };
    Mode mode = Mode::Full;
    torch::Tensor mask;        // additive: Full/Prefill [T, T] causal; Decode [n, 1, 1, L]
    KvCache* cache = nullptr;  // Prefill / Decode
    std::vector<int64_t> rows; // Prefill: cache row of each batch entry
    torch::Tensor rowIndex;    // Decode: [n] = 0..n-1 (int64)
    torch::Tensor positions;   // Decode: [n] position written by each row (int64)
    int64_t length = 0;        // Decode: cache positions attended to (max position + 1)
};

class AttentionImpl : public torch::nn::Module {
public:
    AttentionImpl(const ModelConfig& config, int layer);
    // x: [batch, time, dim] -> [batch, time, dim]
    torch::Tensor forward(const torch::Tensor& x, const AttentionContext& ctx);

private:
    torch::Tensor attendCached(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                               const AttentionContext& ctx);
    int m_layer;
    int m_heads;
    int m_headDim;
    float m_dropout;
    torch::nn::Linear m_qkv{nullptr};
    torch::nn::Linear m_proj{nullptr};
};
TORCH_MODULE(Attention);

class MlpImpl : public torch::nn::Module {
public:
    explicit MlpImpl(const ModelConfig& config);
    torch::Tensor forward(const torch::Tensor& x); // [batch, time, dim]

private:
    float m_dropout;
    torch::nn::Linear m_up{nullptr};
    torch::nn::Linear m_down{nullptr};
};
TORCH_MODULE(Mlp);

class BlockImpl : public torch::nn::Module {
public:
    BlockImpl(const ModelConfig& config, int layer);
    torch::Tensor forward(const torch::Tensor& x, const AttentionContext& ctx);

private:
    torch::nn::LayerNorm m_ln1{nullptr};
    Attention m_attn{nullptr};
    torch::nn::LayerNorm m_ln2{nullptr};
    Mlp m_mlp{nullptr};
};
TORCH_MODULE(Block);

// Character-level decoder-only Transformer (pre-norm, learned positions,
// output projection tied to the token embedding).
class LmImpl : public torch::nn::Module {
public:
    explicit LmImpl(const ModelConfig& config);

    // Training / scoring. tokens: [batch, time] -> logits [batch, time, vocab]
    // With partner embeddings (ModelConfig::partners) each row's partners are
    // found in its tokens (partner_track.h).
    torch::Tensor forward(const torch::Tensor& tokens);
    // Runs right-padded prompts and stores their keys/values in cache rows
    // `rows`. tokens: [batch, time]; lastIndex: [batch] index of each prompt's
    // last token. Returns next-token logits [batch, vocab]. partners: [batch,
    // time] partner token of each input or -1 (undefined: found in tokens).
    torch::Tensor prefill(const torch::Tensor& tokens, const torch::Tensor& lastIndex, KvCache& cache,
                          const std::vector<int64_t>& rows, const torch::Tensor& partners = {});
    // One token for each of rows 0..n-1. tokens, positions: [n] -> logits
    // [n, vocab]. length = max(positions) + 1, passed in so that a GPU need
    // not be synchronised to find it. partners: [n] partner token of each
    // input or -1; required with partner embeddings (a row's 上联 is in its
    // cache, not in this step's tokens), ignored without.
    torch::Tensor decode(const torch::Tensor& tokens, const torch::Tensor& positions, int64_t length, KvCache& cache,
                         const torch::Tensor& partners = {});

    // Zeroed cache of `rows` rows, on the model's device and dtype.
    KvCache makeCache(int rows) const;
    const ModelConfig& config() const { return m_config; }

private:
    torch::Tensor run(const torch::Tensor& tokens, const torch::Tensor& positions, const AttentionContext& ctx,
                      const torch::Tensor& partners);
    // The partners of right-padded token rows [batch, time] (on their device), -1 where none.
    torch::Tensor partnersOf(const torch::Tensor& tokens) const;
    torch::Tensor causalMask(int64_t time, const torch::Tensor& like) const;

    ModelConfig m_config;
    torch::nn::Embedding m_tokens{nullptr};
    torch::nn::Embedding m_positions{nullptr};
    torch::nn::ModuleList m_blocks;
    torch::nn::LayerNorm m_lnFinal{nullptr};
    torch::nn::Linear m_partner{nullptr}; // "partner": P, dim x dim, no bias; null without partners
};
TORCH_MODULE(Lm);

} // namespace couplet
