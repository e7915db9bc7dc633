#include "cluster_bench_decoder.h"

#include <thread>

namespace couplet::bench {

void FixedStepDecoder::waitOut(std::chrono::steady_clock::time_point start) const
{
    std::this_thread::sleep_until(start + m_step);
}

void FixedStepDecoder::prefill(std::span<const PrefillItem> items, std::vector<float>& logits)
{
    const auto start = std::chrono::steady_clock::now();
    m_inner.prefill(items, logits);
    waitOut(start);
}

void FixedStepDecoder::decode(std::span<const DecodeItem> items, std::vector<float>& logits)
{
    const auto start = std::chrono::steady_clock::now();
    m_inner.decode(items, logits);
    waitOut(start);
}

} // namespace couplet::bench
