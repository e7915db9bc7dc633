#include "transformer.h"

#include "partner_track.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace couplet {

namespace F = torch::nn::functional;
using torch::indexing::Slice;

AttentionImpl::AttentionImpl(const ModelConfig& config, int layer)
    : m_layer(layer), m_heads(config.heads), m_headDim(config.headDim()), m_dropout(config.dropout)
{
    m_qkv = register_module("qkv", torch::nn::Linear(config.dim, 3 * config.dim));
    m_proj = register_module("proj", torch::nn::Linear(config.dim, config.dim));
}

torch::Tensor AttentionImpl::forward(const torch::Tensor& x, const AttentionContext& ctx)
{
    const auto batch = x.size(0), time = x.size(1);
    // qkv: [batch, time, 3, heads, headDim] -> 3 x [batch, heads, time, headDim]
    auto qkv = m_qkv(x).view({batch, time, 3, m_heads, m_headDim}).permute({2, 0, 3, 1, 4});
    auto q = qkv[0], k = qkv[1], v = qkv[2];
    const double scale = 1.0 / std::sqrt(static_cast<double>(m_headDim));

    torch::Tensor y;
    if (ctx.mode == AttentionContext::Mode::Decode) {
        y = attendCached(q, k, v, ctx);
    } else {
        if (ctx.mode == AttentionContext::Mode::Prefill) {
            for (std::size_t i = 0; i < ctx.rows.size(); ++i) {
                ctx.cache->k[m_layer][ctx.rows[i]].narrow(1, 0, time).copy_(k[i]);
                ctx.cache->v[m_layer][ctx.rows[i]].narrow(1, 0, time).copy_(v[i]);
            }
        }
        auto att = torch::matmul(q, k.transpose(-2, -1)) * scale + ctx.mask; // [batch, heads, time, time]
        att = torch::softmax(att, -1);
        if (is_training() && m_dropout > 0) att = torch::dropout(att, m_dropout, true);
        y = torch::matmul(att, v); // [batch, heads, time, headDim]
    }
    y = y.transpose(1, 2).reshape({batch, time, m_heads * m_headDim});
    y = m_proj(y);
    if (is_training() && m_dropout > 0) y = torch::dropout(y, m_dropout, true);
    return y;
}

// q, k, v: [n, heads, 1, headDim]; writes k, v at each row's position, then
// attends over positions 0..length-1 of rows 0..n-1.
torch::Tensor AttentionImpl::attendCached(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                          const AttentionContext& ctx)
{
    const auto n = q.size(0);
    auto& kc = ctx.cache->k[m_layer];
    auto& vc = ctx.cache->v[m_layer];
    kc.index_put_({ctx.rowIndex, Slice(), ctx.positions}, k.squeeze(2));
    vc.index_put_({ctx.rowIndex, Slice(), ctx.positions}, v.squeeze(2));
    auto keys = kc.narrow(0, 0, n).narrow(2, 0, ctx.length);   // [n, heads, L, headDim]
    auto values = vc.narrow(0, 0, n).narrow(2, 0, ctx.length); // [n, heads, L, headDim]
    const double scale = 1.0 / std::sqrt(static_cast<double>(m_headDim));
    // One query per row, so scores and the weighted sum are a broadcast
    // multiply and a reduction. A batched matmul here would run n x heads
    // GEMMs of 1 x headDim x L, each paying BLAS call and packing overhead
    // (about twice as slow on the CPU at batch 64 and 256).
    auto att = (keys * q).sum(-1).unsqueeze(2) * scale + ctx.mask; // [n, heads, 1, L]
    att = torch::softmax(att, -1);
    return (att.transpose(-2, -1) * values).sum(2, true); // [n, heads, 1, headDim]
}

MlpImpl::MlpImpl(const ModelConfig& config) : m_dropout(config.dropout)
{
    m_up = register_module("up", torch::nn::Linear(config.dim, config.mlpHidden));
    m_down = register_module("down", torch::nn::Linear(config.mlpHidden, config.dim));
}

torch::Tensor MlpImpl::forward(const torch::Tensor& x)
{
    auto y = m_down(F::gelu(m_up(x)));
    if (is_training() && m_dropout > 0) y = torch::dropout(y, m_dropout, true);
    return y;
}

BlockImpl::BlockImpl(const ModelConfig& config, int layer)
{
    m_ln1 = register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({config.dim})));
    m_attn = register_module("attn", Attention(config, layer));
    m_ln2 = register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({config.dim})));
    m_mlp = register_module("mlp", Mlp(config));
}

torch::Tensor BlockImpl::forward(const torch::Tensor& x, const AttentionContext& ctx)
{
    auto h = x + m_attn(m_ln1(x), ctx);
    return h + m_mlp(m_ln2(h));
}

LmImpl::LmImpl(const ModelConfig& config) : m_config(config)
{
    config.validate();
    m_tokens = register_module("wte", torch::nn::Embedding(config.vocabSize, config.dim));
    m_positions = register_module("wpe", torch::nn::Embedding(config.maxLen, config.dim));
    m_blocks = register_module("blocks", torch::nn::ModuleList());
    for (int i = 0; i < config.layers; ++i) m_blocks->push_back(Block(config, i));
    m_lnFinal = register_module("ln_f", torch::nn::LayerNorm(torch::nn::LayerNormOptions({config.dim})));
    // GPT-2 style initialisation: small normal weights, zero biases.
    for (auto& p : named_parameters()) {
        torch::NoGradGuard guard;
        if (p.key().find("ln") != std::string::npos) continue;
        if (p.key().find("bias") != std::string::npos) p.value().zero_();
        else p.value().normal_(0.0, 0.02);
    }
    // P starts at zero (after the loop, so that the other weights draw the
    // same numbers as without it): weights grown from a model without
    // partners compute its function until training moves P. Its own initial
    // draw, zeroed here, moves the generator on, so training's dropout masks
    // are not those of the same run without partners.
    if (config.partners) {
        m_partner = register_module("partner", torch::nn::Linear(torch::nn::LinearOptions(config.dim, config.dim).bias(false)));
        torch::NoGradGuard guard;
        m_partner->weight.zero_();
    }
}

torch::Tensor LmImpl::partnersOf(const torch::Tensor& tokens) const
{
    const auto host = tokens.to(torch::kCPU, torch::kLong).contiguous();
    auto out = torch::empty_like(host);
    const auto time = host.size(1);
    for (int64_t b = 0; b < host.size(0); ++b) {
        const auto row = couplet::partnersOf(host.data_ptr<int64_t>() + b * time, static_cast<std::size_t>(time));
        std::copy(row.begin(), row.end(), out.data_ptr<int64_t>() + b * time);
    }
    return out.to(tokens.device());
}

torch::Tensor LmImpl::causalMask(int64_t time, const torch::Tensor& like) const
{
    // [time, time]: 0 on and below the diagonal, -inf above.
    auto upper = torch::ones({time, time}, like.options().dtype(torch::kBool)).triu(1);
    return torch::zeros({time, time}, like.options()).masked_fill(upper, -std::numeric_limits<float>::infinity());
}

torch::Tensor LmImpl::run(const torch::Tensor& tokens, const torch::Tensor& positions, const AttentionContext& ctx,
                          const torch::Tensor& partners)
{
    auto x = m_tokens(tokens) + m_positions(positions); // [batch, time, dim]
    if (m_partner) {
        if (!partners.defined()) throw std::logic_error("a model with partner embeddings needs each input's partner");
        // partners: [batch, time], -1 where none; those inputs get nothing.
        const auto has = partners.ge(0).unsqueeze(-1);                   // [batch, time, 1]
        const auto partner = m_tokens(partners.clamp_min(0)) * has.to(x.scalar_type()); // [batch, time, dim]
        x = x + m_partner(partner);
    }
    for (const auto& block : *m_blocks) x = block->as<Block>()->forward(x, ctx);
    return m_lnFinal(x);
}

torch::Tensor LmImpl::forward(const torch::Tensor& tokens)
{
    const auto time = tokens.size(1);
    AttentionContext ctx;
    ctx.mode = AttentionContext::Mode::Full;
    ctx.mask = causalMask(time, m_tokens->weight);
    auto positions = torch::arange(time, tokens.options().dtype(torch::kLong)).unsqueeze(0);
    auto h = run(tokens, positions, ctx, m_partner ? partnersOf(tokens) : torch::Tensor());
    return torch::matmul(h, m_tokens->weight.t()); // [batch, time, vocab]
}

torch::Tensor LmImpl::prefill(const torch::Tensor& tokens, const torch::Tensor& lastIndex, KvCache& cache,
                              const std::vector<int64_t>& rows, const torch::Tensor& partners)
{
    const auto time = tokens.size(1);
    AttentionContext ctx;
    ctx.mode = AttentionContext::Mode::Prefill;
    ctx.mask = causalMask(time, m_tokens->weight);
    ctx.cache = &cache;
    ctx.rows = rows;
    auto positions = torch::arange(time, tokens.options().dtype(torch::kLong)).unsqueeze(0);
    auto h = run(tokens, positions, ctx,
                 !m_partner || partners.defined() ? partners : partnersOf(tokens)); // [batch, time, dim]
    auto batchIndex = torch::arange(tokens.size(0), lastIndex.options());
    auto last = h.index({batchIndex, lastIndex}); // [batch, dim]
    return torch::matmul(last, m_tokens->weight.t());
}

torch::Tensor LmImpl::decode(const torch::Tensor& tokens, const torch::Tensor& positions, int64_t length,
                             KvCache& cache, const torch::Tensor& partners)
{
    const auto n = tokens.size(0);
    AttentionContext ctx;
    ctx.mode = AttentionContext::Mode::Decode;
    ctx.cache = &cache;
    ctx.rowIndex = torch::arange(n, positions.options());
    ctx.positions = positions;
    ctx.length = length;
    // Row i sees positions 0..positions[i]; later ones hold stale keys.
    auto steps = torch::arange(ctx.length, positions.options()).unsqueeze(0); // [1, L]
    auto future = steps > positions.unsqueeze(1);                             // [n, L]
    ctx.mask = torch::zeros({n, 1, 1, ctx.length}, m_tokens->weight.options())
                   .masked_fill(future.view({n, 1, 1, ctx.length}), -std::numeric_limits<float>::infinity());
    auto h = run(tokens.unsqueeze(1), positions.unsqueeze(1), ctx,
                 partners.defined() ? partners.unsqueeze(1) : partners); // [n, 1, dim]
    return torch::matmul(h.squeeze(1), m_tokens->weight.t());
}

KvCache LmImpl::makeCache(int rows) const
{
    KvCache cache;
    const auto opts = m_tokens->weight.options();
    for (int i = 0; i < m_config.layers; ++i) {
        cache.k.push_back(torch::zeros({rows, m_config.heads, m_config.maxLen, m_config.headDim()}, opts));
        cache.v.push_back(torch::zeros({rows, m_config.heads, m_config.maxLen, m_config.headDim()}, opts));
    }
    return cache;
}

} // namespace couplet
