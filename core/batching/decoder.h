#pragma once

#include <functional>
#include <span>
#include <vector>

namespace couplet {

// One sequence's prompt, written into KV row `row` at positions 0..tokens.size()-1.
struct PrefillItem {
    int row = 0;
    std::vector<int> tokens;
};

// One sequence's next token: `token` is written at `position` of KV row `row`.
struct DecodeItem {
    int row = 0;
    int token = 0;
    int position = 0;
};

// Thrown by reserveRows() when the device cannot hold that many KV rows.
struct OutOfDeviceMemory {
    int rowsThatFit = 0;
};

// What the scheduler needs from a model: a KV cache organised in rows (one per
// running sequence) and batched prefill / decode passes over those rows.
// The scheduler keeps running sequences compact in rows 0..n-1, so decode() is
// always called with rows 0..n-1 in ascending order.
class Decoder {
public:
    virtual ~Decoder() = default;

    virtual int vocabSize() const = 0;
    // Longest sequence (prompt + generated) a row can hold, in tokens.
    virtual int maxSequenceLength() const = 0;
    // KV rows currently allocated.
    virtual int rowCapacity() const = 0;
    // Allocates KV memory for `rows` rows (growing or shrinking). Throws
    // OutOfDeviceMemory when the device cannot hold them.
    virtual void reserveRows(int rows) = 0;

    // Runs the prompts; logits receives items.size() x vocabSize() floats, the
    // next-token logits after the last prompt token of each item.
    virtual void prefill(std::span<const PrefillItem> items, std::vector<float>& logits) = 0;
    // Advances every item by one token; logits as for prefill().
    virtual void decode(std::span<const DecodeItem> items, std::vector<float>& logits) = 0;
    // Copies the first `length` positions of KV row `from` into row `to` (compaction).
    virtual void copyRow(int from, int to, int length) = 0;

    // Runs body(begin, end) over [0, n) on the decoder's CPU threads, for the
    // per-row work around a step (sampling, masks); body must be safe to run
    // on disjoint ranges at once. The default runs it here, in one piece.
    virtual void parallelFor(int n, const std::function<void(int, int)>& body) { if (n > 0) body(0, n); }
    // Bytes of KV cache per row (keys and values of every layer); 0 when unknown.
    virtual std::size_t bytesPerRow() const { return 0; }
};

} // namespace couplet
