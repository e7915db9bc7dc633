#include "fake_decoder.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <stdexcept>

namespace couplet::test {

FakeDecoder::FakeDecoder(int vocab, int maxSequenceLength)
    : m_vocab(vocab), m_maxLength(maxSequenceLength)
{
}

void FakeDecoder::violate(const std::string& what)
{
    m_violations.push_back(what);
    throw std::logic_error(what);
}

void FakeDecoder::checkRow(int row)
{
    if (row < 0 || row >= m_capacity)
        violate("row " + std::to_string(row) + " outside the " + std::to_string(m_capacity)
                + " reserved rows");
}

void FakeDecoder::reserveRows(int rows)
{
    reserveRequests.push_back(rows);
    if (rows > m_rowsThatFit) throw OutOfDeviceMemory{m_rowsThatFit};
    m_capacity = rows;
    m_rows.resize(rows);
}

int FakeDecoder::nextToken(const std::vector<int>& history) const
{
    const long long sum = std::accumulate(history.begin(), history.end(), 0LL);
    return static_cast<int>((sum * 31 + static_cast<long long>(history.size())) % m_vocab);
}

void FakeDecoder::writeLogits(std::vector<float>& logits, std::size_t index, int token) const
{
    logits[index * m_vocab + token] = 1.0f;
}

void FakeDecoder::prefill(std::span<const PrefillItem> items, std::vector<float>& logits)
{
    if (!m_prefillError.empty()) {
        const std::string message = std::exchange(m_prefillError, {});
        throw std::runtime_error(message);
    }
    if (m_prefillOom > 0) throw OutOfDeviceMemory{std::exchange(m_prefillOom, 0)};
    ++prefillCalls;
    maxBatchSeen = std::max(maxBatchSeen, static_cast<int>(items.size()));
    std::size_t longest = 0;
    for (const auto& item : items) longest = std::max(longest, item.tokens.size());
    logits.assign(items.size() * m_vocab, 0.0f);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& item = items[i];
        checkRow(item.row);
        if (item.tokens.empty() || static_cast<int>(item.tokens.size()) > m_maxLength)
            violate("prefill of " + std::to_string(item.tokens.size()) + " tokens");
        prefillTokens += static_cast<int>(item.tokens.size());
        paddedTokens += static_cast<int>(longest - item.tokens.size());
        m_rows[item.row] = item.tokens;
        writeLogits(logits, i, nextToken(item.tokens));
    }
}

void FakeDecoder::decode(std::span<const DecodeItem> items, std::vector<float>& logits)
{
    if (!m_decodeError.empty()) {
        const std::string message = std::exchange(m_decodeError, {});
        throw std::runtime_error(message);
    }
    if (m_decodeOom > 0) throw OutOfDeviceMemory{std::exchange(m_decodeOom, 0)};
    ++decodeCalls;
    maxBatchSeen = std::max(maxBatchSeen, static_cast<int>(items.size()));
    logits.assign(items.size() * m_vocab, 0.0f);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& item = items[i];
        if (item.row != static_cast<int>(i))
            violate("decode item " + std::to_string(i) + " has row " + std::to_string(item.row));
        checkRow(item.row);
        auto& history = m_rows[item.row];
        if (item.position != static_cast<int>(history.size()))
            violate("row " + std::to_string(item.row) + ": position " + std::to_string(item.position)
                    + " but " + std::to_string(history.size()) + " tokens written");
        if (item.position >= m_maxLength) violate("position past the maximum length");
        history.push_back(item.token);
        writeLogits(logits, i, nextToken(history));
    }
}

void FakeDecoder::copyRow(int from, int to, int length)
{
    checkRow(from);
    checkRow(to);
    if (length > static_cast<int>(m_rows[from].size()))
        violate("copyRow of " + std::to_string(length) + " positions from a row holding "
                + std::to_string(m_rows[from].size()));
    ++copies;
    m_rows[to].assign(m_rows[from].begin(), m_rows[from].begin() + length);
    // The source row is free now; a stale read of it must not look valid.
    m_rows[from].assign(1, -1);
}

} // namespace couplet::test
