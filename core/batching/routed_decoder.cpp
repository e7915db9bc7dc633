#include "routed_decoder.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace couplet {

RoutedDecoder::RoutedDecoder(std::unique_ptr<Decoder> main, std::unique_ptr<Decoder> routed, int routeToken)
    : m_inner{std::move(main), std::move(routed)}, m_routeToken(routeToken)
{
    if (!m_inner[0] || !m_inner[1]) throw std::invalid_argument("routed decoder: both decoders are needed");
    if (m_inner[0]->vocabSize() != m_inner[1]->vocabSize())
        throw std::invalid_argument("routed decoder: the vocabularies differ (" + std::to_string(m_inner[0]->vocabSize())
                                    + " and " + std::to_string(m_inner[1]->vocabSize()) + " tokens)");
}

int RoutedDecoder::maxSequenceLength() const
{
    return std::min(m_inner[0]->maxSequenceLength(), m_inner[1]->maxSequenceLength());
}

void RoutedDecoder::reserveRows(int rows)
{
    // Rows the scheduler gives up hold no sequence it will decode again.
    for (int row = rows; row < static_cast<int>(m_slots.size()); ++row) release(row);
    int fit = rows;
    for (auto& inner : m_inner) {
        try {
            inner->reserveRows(rows);
        } catch (const OutOfDeviceMemory& e) {
            fit = std::min(fit, e.rowsThatFit);
        }
    }
    if (fit < rows) {
        for (auto& inner : m_inner) inner->reserveRows(fit);
        throw OutOfDeviceMemory{fit};
    }
}

RoutedDecoder::Slot& RoutedDecoder::slot(int row)
{
    if (row < 0) throw std::out_of_range("routed decoder: negative row");
    if (row >= static_cast<int>(m_slots.size())) m_slots.resize(static_cast<std::size_t>(row) + 1);
    return m_slots[static_cast<std::size_t>(row)];
}

int RoutedDecoder::innerOf(int row) const
{
    return row >= 0 && row < static_cast<int>(m_slots.size()) ? m_slots[static_cast<std::size_t>(row)].inner : -1;
}

void RoutedDecoder::release(int row)
{
    Slot& s = slot(row);
    if (s.inner < 0) return;
    auto& owners = m_owners[static_cast<std::size_t>(s.inner)];
    const int last = static_cast<int>(owners.size()) - 1;
    if (s.innerRow != last) {
        const int moved = owners[static_cast<std::size_t>(last)];
        Slot& m = slot(moved);
        m_inner[static_cast<std::size_t>(s.inner)]->copyRow(last, s.innerRow, m.length);
        m.innerRow = s.innerRow;
        owners[static_cast<std::size_t>(s.innerRow)] = moved;
    }
    owners.pop_back();
    s = Slot{};
}

void RoutedDecoder::prefill(std::span<const PrefillItem> items, std::vector<float>& logits)
{
    std::array<std::vector<PrefillItem>, 2> parts;
    std::vector<std::pair<int, std::size_t>> where; // (inner, index in its part), by item
    where.reserve(items.size());
    // What the rows held has ended (a scheduler that stopped, or rows it gave
    // up); all are freed before any is given an inner row, since freeing moves
    // inner rows about.
    for (const auto& item : items) release(item.row);
    for (const auto& item : items) {
        const int inner = std::find(item.tokens.begin(), item.tokens.end(), m_routeToken) != item.tokens.end() ? 1 : 0;
        auto& owners = m_owners[static_cast<std::size_t>(inner)];
        Slot& s = slot(item.row);
        s = Slot{inner, static_cast<int>(owners.size()), static_cast<int>(item.tokens.size())};
        owners.push_back(item.row);
        where.emplace_back(inner, parts[static_cast<std::size_t>(inner)].size());
        parts[static_cast<std::size_t>(inner)].push_back({s.innerRow, item.tokens});
    }
    for (std::size_t k = 0; k < 2; ++k)
        if (!parts[k].empty()) m_inner[k]->prefill(parts[k], m_logits[k]);
    const auto v = static_cast<std::size_t>(vocabSize());
    logits.resize(items.size() * v);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto [inner, index] = where[i];
        std::memcpy(logits.data() + i * v, m_logits[static_cast<std::size_t>(inner)].data() + index * v, v * sizeof(float));
    }
}

void RoutedDecoder::decode(std::span<const DecodeItem> items, std::vector<float>& logits)
{
    // Rows 0..n-1 run; a row above them has ended.
    for (int row = static_cast<int>(items.size()); row < static_cast<int>(m_slots.size()); ++row) release(row);
    std::array<std::vector<DecodeItem>, 2> parts;
    for (std::size_t k = 0; k < 2; ++k) parts[k].assign(m_owners[k].size(), DecodeItem{-1, 0, 0});
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& item = items[i];
        if (item.row != static_cast<int>(i)) throw std::logic_error("decode rows must be 0..n-1 in order");
        Slot& s = slot(item.row);
        if (s.inner < 0) throw std::logic_error("routed decoder: row " + std::to_string(item.row) + " holds no sequence");
        parts[static_cast<std::size_t>(s.inner)][static_cast<std::size_t>(s.innerRow)] = {s.innerRow, item.token, item.position};
        s.length = item.position + 1;
    }
    for (std::size_t k = 0; k < 2; ++k) {
        if (parts[k].empty()) continue;
        m_inner[k]->decode(parts[k], m_logits[k]);
    }
    const auto v = static_cast<std::size_t>(vocabSize());
    logits.resize(items.size() * v);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Slot& s = m_slots[i];
        std::memcpy(logits.data() + i * v,
                    m_logits[static_cast<std::size_t>(s.inner)].data() + static_cast<std::size_t>(s.innerRow) * v,
                    v * sizeof(float));
    }
}

void RoutedDecoder::copyRow(int from, int to, int length)
{
    if (from == to) return;
    release(to); // its sequence has ended; release may move `from` within its inner decoder
    Slot moved = slot(from);
    if (moved.inner < 0) throw std::logic_error("routed decoder: row " + std::to_string(from) + " holds no sequence");
    moved.length = length;
    m_owners[static_cast<std::size_t>(moved.inner)][static_cast<std::size_t>(moved.innerRow)] = to;
    slot(to) = moved;
    slot(from) = Slot{};
}

} // namespace couplet
