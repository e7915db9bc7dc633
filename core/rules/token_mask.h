#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace couplet {

// A set of token ids as one bit per vocabulary entry, 16 to a word: the
// sampler scans a row's logits 16 at a time against it instead of gathering
// thousands of ids one by one. Bits past the vocabulary stay clear.
class TokenMask {
public:
    TokenMask() = default;
    TokenMask(std::size_t vocab, const std::vector<int>& ids) : m_vocab(vocab), m_words((vocab + 15) / 16, 0)
    {
        for (int id : ids) set(id);
    }

    void set(int id) { m_words[static_cast<std::size_t>(id) / 16] |= static_cast<std::uint16_t>(1u << (id % 16)); }
    void clear(int id) { m_words[static_cast<std::size_t>(id) / 16] &= static_cast<std::uint16_t>(~(1u << (id % 16))); }
    bool has(int id) const { return (m_words[static_cast<std::size_t>(id) / 16] >> (id % 16)) & 1u; }
    std::size_t vocab() const { return m_vocab; }
    const std::uint16_t* words() const { return m_words.data(); }

private:
    std::size_t m_vocab = 0;
    std::vector<std::uint16_t> m_words;
};

// A set of tokens as a list (in the order it was made) and as a mask.
struct TokenPool {
    std::vector<int> ids;
    TokenMask mask;
    TokenPool() = default;
    TokenPool(std::size_t vocab, std::vector<int> tokens) : ids(std::move(tokens)), mask(vocab, ids) {}
    // Takes `id` out of both.
    void erase(int id)
    {
        std::erase(ids, id);
        mask.clear(id);
    }
};

} // namespace couplet
