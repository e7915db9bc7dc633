#pragma once

#include "decoder.h"

#include <chrono>

namespace couplet::bench {

// A Decoder that forwards to another and makes every prefill and decode call
// last a fixed time, like a GPU whose step time does not depend on the batch
// (true well below its compute bound). With the fake decoder inside, the
// cluster benchmark measures the queue and not the CPU.
class FixedStepDecoder : public Decoder {
public:
    FixedStepDecoder(Decoder& inner, std::chrono::microseconds step) : m_inner(inner), m_step(step) {}

    int vocabSize() const override { return m_inner.vocabSize(); }
    int maxSequenceLength() const override { return m_inner.maxSequenceLength(); }
    int rowCapacity() const override { return m_inner.rowCapacity(); }
    void reserveRows(int rows) override { m_inner.reserveRows(rows); }
    void prefill(std::span<const PrefillItem> items, std::vector<float>& logits) override;
    void decode(std::span<const DecodeItem> items, std::vector<float>& logits) override;
    void copyRow(int from, int to, int length) override { m_inner.copyRow(from, to, length); }

private:
    void waitOut(std::chrono::steady_clock::time_point start) const;

    Decoder& m_inner;
    std::chrono::microseconds m_step;
};

} // namespace couplet::bench
