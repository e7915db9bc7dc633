#pragma once

#include "vocab.h"

#include <cstddef>
#include <vector>

namespace couplet {

// Partner embeddings (ModelConfig::partners): in a sequence
//   ... <up> u0 u1 .. u(n-1) <down> d0 d1 .. d(n-1) ...
// the input at position down + i, the one that predicts 下联 character d_i,
// also gets P · wte[u_i]. PartnerTrack reads a sequence one token at a time,
// as a decoder's KV row sees it, and says which 上联 token (if any) is the
// partner of each input; the training forward pass reads whole sequences
// through it too, so that both agree by construction.
class PartnerTrack {
public:
    // The token at `position` (positions from 0 in order; a position read
    // again forgets what came after it). Returns the partner token of the
    // input at `position`, or -1 when it has none.
    int advance(int token, int position)
    {
        if (m_up >= 0 && position <= m_up) reset();
        if (m_down >= 0 && position <= m_down) m_down = -1;
        if (token == tok::kUpper) {
            reset();
            m_up = position;
            return -1;
        }
        if (m_up < 0) return -1;
        if (m_down < 0) {
            m_upper.resize(static_cast<std::size_t>(position - m_up - 1));
            if (token != tok::kLower) {
                m_upper.push_back(token);
                return -1;
            }
            m_down = position;
        }
        const auto i = static_cast<std::size_t>(position - m_down);
        return i < m_upper.size() ? m_upper[i] : -1;
    }
    void reset()
    {
        m_upper.clear();
        m_up = m_down = -1;
    }

private:
    std::vector<int> m_upper; // the 上联's tokens so far
    int m_up = -1;            // position of <up>, -1 before it
    int m_down = -1;          // position of <down>, -1 before it
};

// The partner of every position of `tokens` (n of them), -1 where none.
template <typename T>
std::vector<T> partnersOf(const T* tokens, std::size_t n)
{
    PartnerTrack track;
    std::vector<T> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<T>(track.advance(static_cast<int>(tokens[i]), static_cast<int>(i)));
    return out;
}

} // namespace couplet
