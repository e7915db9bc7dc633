#pragma once

#include "decoder.h"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

namespace couplet {

// Two decoders behind one: a sequence whose prompt holds `routeToken` runs on
// `routed`, every other one on `main` (the shipped model's 藏头 couplets on
// weights of their own, the rest on the main weights: the model card, "藏头 on
// D5's weights"). The scheduler sees one decoder with rows 0..n-1; each inner
// decoder keeps its own rows compact and in order, as NativeDecoder demands:
// a row that ends frees its inner row, and the inner decoder's last row moves
// into the hole (copyRow). Both inner decoders reserve every row, so either
// can hold all the sequences at once. The two must share the vocabulary.
class RoutedDecoder : public Decoder {
public:
    RoutedDecoder(std::unique_ptr<Decoder> main, std::unique_ptr<Decoder> routed, int routeToken);

    int vocabSize() const override { return m_inner[0]->vocabSize(); }
    int maxSequenceLength() const override;
    int rowCapacity() const override { return std::min(m_inner[0]->rowCapacity(), m_inner[1]->rowCapacity()); }
    void reserveRows(int rows) override;
    void prefill(std::span<const PrefillItem> items, std::vector<float>& logits) override;
    void decode(std::span<const DecodeItem> items, std::vector<float>& logits) override;
    void copyRow(int from, int to, int length) override;
    void parallelFor(int n, const std::function<void(int, int)>& body) override { m_inner[0]->parallelFor(n, body); }
    std::size_t bytesPerRow() const override { return m_inner[0]->bytesPerRow() + m_inner[1]->bytesPerRow(); }

    // Which inner decoder holds row `row`: 0 = main, 1 = routed, -1 = none.
    int innerOf(int row) const;

private:
    struct Slot {
        int inner = -1; // -1: the row holds no sequence
        int innerRow = -1;
        int length = 0; // positions written
    };
    Slot& slot(int row);
    // The row's sequence has ended: its inner row is freed and the inner
    // decoder's last row moves into it.
    void release(int row);

    std::array<std::unique_ptr<Decoder>, 2> m_inner;
    int m_routeToken;
    std::vector<Slot> m_slots;                  // by row
    std::array<std::vector<int>, 2> m_owners;   // by inner row: the row it serves
    std::array<std::vector<float>, 2> m_logits; // inner decoders' logits, reused
};

} // namespace couplet
