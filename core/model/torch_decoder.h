#pragma once

#include "decoder.h"
#include "partner_track.h"
#include "transformer.h"

#include <vector>

namespace couplet {

// The Decoder of a Transformer on a libtorch device: a KV cache of
// rowCapacity() rows allocated up front, batched prefill and decode.
class TorchDecoder : public Decoder {
public:
    TorchDecoder(Lm lm, torch::Device device);

    int vocabSize() const override { return m_lm->config().vocabSize; }
    int maxSequenceLength() const override { return m_lm->config().maxLen; }
    int rowCapacity() const override { return m_cache.rows(); }
    void reserveRows(int rows) override;
    void prefill(std::span<const PrefillItem> items, std::vector<float>& logits) override;
    void decode(std::span<const DecodeItem> items, std::vector<float>& logits) override;
    void copyRow(int from, int to, int length) override;
    // On libtorch's intra-op threads.
    void parallelFor(int n, const std::function<void(int, int)>& body) override;

    // Bytes of KV cache per row (keys and values of every layer).
    std::size_t bytesPerRow() const override;

private:
    void toHost(const torch::Tensor& logits, std::vector<float>& out) const;

    Lm m_lm;
    torch::Device m_device;
    KvCache m_cache;
    // Partner embeddings: each row's 上联 and <down>, as its tokens came in
    // (empty for a model without them).
    std::vector<PartnerTrack> m_partners;
};

} // namespace couplet
