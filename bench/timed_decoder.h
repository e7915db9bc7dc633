#pragma once

#include "decoder.h"

#include <chrono>
#include <cstdint>

namespace couplet::bench {

// A Decoder that forwards to another and measures it: time spent in the
// model (as opposed to sampling and scheduling) and rows decoded. With a pad
// width it also decodes unused rows up to that width, which is what static
// batching pays for sequences that finished before the longest one.
class TimedDecoder : public Decoder {
public:
    struct Totals {
        double prefillMs = 0;
        double decodeMs = 0;
        long long decodeCalls = 0;
        long long decodedRows = 0;  // real sequences advanced
        long long paddedRows = 0;   // rows computed, padding included
        long long contextSum = 0;   // sum over real rows of positions attended
        long long prefillItems = 0;      // prompts prefilled (each ends in one row of logits)
        long long prefillTokens = 0;     // their tokens
        long long prefillContextSum = 0; // sum over those tokens of positions attended
        std::uint64_t allocations = 0; // operator new calls inside prefill and decode (allocation_counter.h)
    };

    explicit TimedDecoder(Decoder& inner) : m_inner(inner) {}

    // 0 = no padding; else every decode() runs `rows` rows.
    void setPadding(int rows) { m_padTo = rows; }
    void resetTotals() { m_totals = {}; }
    const Totals& totals() const { return m_totals; }

    int vocabSize() const override { return m_inner.vocabSize(); }
    int maxSequenceLength() const override { return m_inner.maxSequenceLength(); }
    int rowCapacity() const override { return m_inner.rowCapacity(); }
    void reserveRows(int rows) override { m_inner.reserveRows(rows); }
    void prefill(std::span<const PrefillItem> items, std::vector<float>& logits) override;
    void decode(std::span<const DecodeItem> items, std::vector<float>& logits) override;
    void copyRow(int from, int to, int length) override { m_inner.copyRow(from, to, length); }
    // The inner decoder's threads: the scheduler chooses rows' tokens in
    // parallel on them, as it does without this wrapper.
    void parallelFor(int n, const std::function<void(int, int)>& body) override { m_inner.parallelFor(n, body); }
    std::size_t bytesPerRow() const override { return m_inner.bytesPerRow(); }

private:
    Decoder& m_inner;
    int m_padTo = 0;
    Totals m_totals;
    std::vector<DecodeItem> m_padded;
};

} // namespace couplet::bench
