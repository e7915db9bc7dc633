#pragma once

#include "decoder.h"

#include <string>
#include <vector>

namespace couplet::test {

// A deterministic Decoder for scheduler tests. Each KV row keeps its token
// history, so copyRow() must really move state, and the next token is a
// function of the history alone: a sequence produces the same tokens whatever
// row it sits in and whoever shares the batch. Contract violations (rows not
// 0..n-1 ascending, a position that does not match the history, a row outside
// the reservation) throw std::logic_error and are kept in violations().
class FakeDecoder : public Decoder {
public:
    FakeDecoder(int vocab = 97, int maxSequenceLength = 64);

    int vocabSize() const override { return m_vocab; }
    int maxSequenceLength() const override { return m_maxLength; }
    int rowCapacity() const override { return m_capacity; }
    void reserveRows(int rows) override;
    void prefill(std::span<const PrefillItem> items, std::vector<float>& logits) override;
    void decode(std::span<const DecodeItem> items, std::vector<float>& logits) override;
    void copyRow(int from, int to, int length) override;

    // The token the fake model predicts after `history`.
    int nextToken(const std::vector<int>& history) const;

    // Test controls.
    void setRowsThatFit(int rows) { m_rowsThatFit = rows; }
    void failNextPrefill(const std::string& message) { m_prefillError = message; }
    void failNextDecode(const std::string& message) { m_decodeError = message; }
    // The next prefill or decode throws OutOfDeviceMemory{rowsThatFit}, as
    // TorchDecoder does when the device runs out during a step.
    void runOutOfMemoryInNextPrefill(int rowsThatFit) { m_prefillOom = rowsThatFit; }
    void runOutOfMemoryInNextDecode(int rowsThatFit) { m_decodeOom = rowsThatFit; }

    // Counters.
    int prefillCalls = 0;
    int prefillTokens = 0;
    // Sum over prefill calls of (longest prompt - prompt length): the padding
    // a real batched prefill would compute.
    int paddedTokens = 0;
    int decodeCalls = 0;
    int maxBatchSeen = 0;
    int copies = 0;
    std::vector<int> reserveRequests;
    const std::vector<std::string>& violations() const { return m_violations; }

private:
    [[noreturn]] void violate(const std::string& what);
    void checkRow(int row);
    void writeLogits(std::vector<float>& logits, std::size_t index, int token) const;

    int m_vocab;
    int m_maxLength;
    int m_capacity = 0;
    int m_rowsThatFit = 1 << 20;
    std::string m_prefillError;
    std::string m_decodeError;
    int m_prefillOom = 0;   // 0: none
    int m_decodeOom = 0;
    std::vector<std::vector<int>> m_rows;
    std::vector<std::string> m_violations;
};

} // namespace couplet::test
