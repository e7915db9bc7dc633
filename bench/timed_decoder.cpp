#include "timed_decoder.h"

#include "allocation_counter.h"

#include <algorithm>

namespace couplet::bench {
namespace {

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

void TimedDecoder::prefill(std::span<const PrefillItem> items, std::vector<float>& logits)
{
    const std::uint64_t allocations = allocationsSoFar();
    const auto start = std::chrono::steady_clock::now();
    m_inner.prefill(items, logits);
    m_totals.prefillMs += msSince(start);
    for (const auto& item : items) {
        const auto n = static_cast<long long>(item.tokens.size());
        ++m_totals.prefillItems;
        m_totals.prefillTokens += n;
        m_totals.prefillContextSum += n * (n + 1) / 2; // token j attends to positions 0..j
    }
    m_totals.allocations += allocationsSoFar() - allocations;
}

void TimedDecoder::decode(std::span<const DecodeItem> items, std::vector<float>& logits)
{
    const auto n = static_cast<int>(items.size());
    for (const auto& item : items) m_totals.contextSum += item.position + 1;
    m_totals.decodedRows += n;
    ++m_totals.decodeCalls;
    const int width = std::min(std::max(n, m_padTo), m_inner.rowCapacity());
    m_totals.paddedRows += width;
    const std::uint64_t allocations = allocationsSoFar();
    const auto start = std::chrono::steady_clock::now();
    if (width == n) {
        m_inner.decode(items, logits);
    } else {
        // Pad rows are free KV rows (the scheduler keeps running ones in
        // 0..n-1); what they write there is overwritten by the next prefill.
        m_padded.assign(items.begin(), items.end());
        for (int row = n; row < width; ++row) m_padded.push_back({row, items.front().token, 0});
        m_inner.decode(m_padded, logits);
        logits.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(vocabSize()));
    }
    m_totals.decodeMs += msSince(start);
    m_totals.allocations += allocationsSoFar() - allocations;
}

} // namespace couplet::bench
