#include "torch_decoder.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace couplet {
namespace {

bool isOutOfMemory(const c10::Error& e)
{
    const std::string what = e.what();
    return what.find("out of memory") != std::string::npos || what.find("can't allocate memory") != std::string::npos;
}

} // namespace

TorchDecoder::TorchDecoder(Lm lm, torch::Device device) : m_lm(std::move(lm)), m_device(device) {}

std::size_t TorchDecoder::bytesPerRow() const
{
    const auto& c = m_lm->config();
    const auto elem = m_lm->parameters().front().element_size();
    return static_cast<std::size_t>(2 * c.layers * c.maxLen * c.dim) * static_cast<std::size_t>(elem);
}

void TorchDecoder::reserveRows(int rows)
{
    if (rows == rowCapacity()) return;
    torch::NoGradGuard guard;
    KvCache old = std::move(m_cache);
    m_cache = {};
    int tryRows = rows;
    while (tryRows > 0) {
        try {
            KvCache fresh = m_lm->makeCache(tryRows);
            const int keep = std::min(tryRows, old.rows());
            for (std::size_t l = 0; l < fresh.k.size() && keep > 0; ++l) {
                fresh.k[l].narrow(0, 0, keep).copy_(old.k[l].narrow(0, 0, keep));
                fresh.v[l].narrow(0, 0, keep).copy_(old.v[l].narrow(0, 0, keep));
            }
            m_cache = std::move(fresh);
            if (m_lm->config().partners) m_partners.resize(static_cast<std::size_t>(tryRows));
            break;
        } catch (const c10::Error& e) {
            if (!isOutOfMemory(e)) throw;
            tryRows /= 2; // halve until the device holds it
        }
    }
    if (tryRows < rows) {
        if (tryRows == 0) m_cache = std::move(old);
        throw OutOfDeviceMemory{tryRows > 0 ? tryRows : rowCapacity()};
    }
}

void TorchDecoder::toHost(const torch::Tensor& logits, std::vector<float>& out) const
{
    auto host = logits.to(torch::kFloat32).to(torch::kCPU).contiguous();
    out.resize(static_cast<std::size_t>(host.numel()));
    std::memcpy(out.data(), host.data_ptr<float>(), out.size() * sizeof(float));
}

void TorchDecoder::prefill(std::span<const PrefillItem> items, std::vector<float>& logits)
{
    torch::NoGradGuard guard;
    std::size_t time = 0;
    for (const auto& item : items) time = std::max(time, item.tokens.size());
    const auto n = static_cast<int64_t>(items.size());
    // Right-padded: causal attention keeps real tokens from seeing the pads,
    // and the pads' cache entries are overwritten by later decode steps.
    const bool partners = m_lm->config().partners;
    auto tokens = torch::zeros({n, static_cast<int64_t>(time)}, torch::kLong);
    auto partner = partners ? torch::full({n, static_cast<int64_t>(time)}, -1, torch::kLong) : torch::Tensor();
    auto last = torch::empty({n}, torch::kLong);
    std::vector<int64_t> rows;
    auto t = tokens.accessor<int64_t, 2>();
    for (int64_t i = 0; i < n; ++i) {
        const auto& item = items[static_cast<std::size_t>(i)];
        if (item.tokens.empty()) throw std::invalid_argument("empty prompt");
        if (item.row < 0 || item.row >= rowCapacity()) throw std::out_of_range("prefill row outside the cache");
        for (std::size_t j = 0; j < item.tokens.size(); ++j) t[i][static_cast<int64_t>(j)] = item.tokens[j];
        if (partners) {
            auto& track = m_partners[static_cast<std::size_t>(item.row)];
            track.reset();
            auto pa = partner.accessor<int64_t, 2>();
            for (std::size_t j = 0; j < item.tokens.size(); ++j)
                pa[i][static_cast<int64_t>(j)] = track.advance(item.tokens[j], static_cast<int>(j));
        }
        last[i] = static_cast<int64_t>(item.tokens.size()) - 1;
        rows.push_back(item.row);
    }
    try {
        toHost(m_lm->prefill(tokens.to(m_device), last.to(m_device), m_cache, rows,
                             partners ? partner.to(m_device) : partner),
               logits);
    } catch (const c10::Error& e) {
        if (isOutOfMemory(e)) throw OutOfDeviceMemory{std::max(1, static_cast<int>(n) / 2)};
        throw std::runtime_error(e.what_without_backtrace());
    }
}

void TorchDecoder::decode(std::span<const DecodeItem> items, std::vector<float>& logits)
{
    torch::NoGradGuard guard;
    const auto n = static_cast<int64_t>(items.size());
    const bool partners = m_lm->config().partners;
    auto tokens = torch::empty({n}, torch::kLong);
    auto positions = torch::empty({n}, torch::kLong);
    auto partner = partners ? torch::empty({n}, torch::kLong) : torch::Tensor();
    auto tp = tokens.accessor<int64_t, 1>();
    auto pp = positions.accessor<int64_t, 1>();
    int64_t length = 0;
    for (int64_t i = 0; i < n; ++i) {
        const auto& item = items[static_cast<std::size_t>(i)];
        if (item.row != i) throw std::logic_error("decode rows must be 0..n-1 in order");
        if (item.position >= maxSequenceLength()) throw std::out_of_range("position past the model's maximum length");
        tp[i] = item.token;
        pp[i] = item.position;
        if (partners) partner[i] = m_partners[static_cast<std::size_t>(i)].advance(item.token, item.position);
        length = std::max<int64_t>(length, item.position + 1);
    }
    try {
        toHost(m_lm->decode(tokens.to(m_device), positions.to(m_device), length, m_cache,
                            partners ? partner.to(m_device) : partner),
               logits);
    } catch (const c10::Error& e) {
        if (isOutOfMemory(e)) throw OutOfDeviceMemory{std::max(1, static_cast<int>(n) / 2)};
        throw std::runtime_error(e.what_without_backtrace());
    }
}

void TorchDecoder::copyRow(int from, int to, int length)
{
    if (from == to || length <= 0) return;
    if (!m_partners.empty()) m_partners[static_cast<std::size_t>(to)] = m_partners[static_cast<std::size_t>(from)];
    torch::NoGradGuard guard;
    for (std::size_t l = 0; l < m_cache.k.size(); ++l) {
        m_cache.k[l][to].narrow(1, 0, length).copy_(m_cache.k[l][from].narrow(1, 0, length));
        m_cache.v[l][to].narrow(1, 0, length).copy_(m_cache.v[l][from].narrow(1, 0, length));
    }
}

void TorchDecoder::parallelFor(int n, const std::function<void(int, int)>& body)
{
    // A row's choice costs tens of microseconds: chunks of 4 rows pay for a thread.
    at::parallel_for(0, n, 4, [&](int64_t begin, int64_t end) { body(static_cast<int>(begin), static_cast<int>(end)); });
}

} // namespace couplet
