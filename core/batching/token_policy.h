#pragma once

#include <span>
#include <string>
#include <vector>

namespace couplet {

// The per-sequence decisions the scheduler delegates: the prompt, the choice of
// each next token (constraints and sampling), when the sequence is complete and
// what text it has produced. One instance per sequence, used from one thread.
class TokenPolicy {
public:
    virtual ~TokenPolicy() = default;

    // Tokens to prefill, starting with <bos>. Never empty.
    virtual std::vector<int> promptTokens() const = 0;
    // Picks the next token from next-token logits [vocab] and records it.
    // May throw std::exception: the sequence then fails with e.what().
    virtual int choose(std::span<const float> logits) = 0;
    // True once the last chosen token ended the sequence.
    virtual bool finished() const = 0;
    // Every token chosen so far (without the prompt).
    virtual const std::vector<int>& generated() const = 0;
    // Text produced since the previous call, never half a UTF-8 character.
    virtual std::string takeTextDelta() = 0;
    // Sum of log-probabilities of the chosen tokens under the model (for ranking).
    virtual double logProb() const = 0;
};

} // namespace couplet
