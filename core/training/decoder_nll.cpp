#include "decoder_nll.h"

#include "sampler.h"

#include <algorithm>
#include <span>
#include <stdexcept>

namespace couplet {
namespace {

// Index of the first position whose next token is a target.
std::size_t firstTarget(const TrainingExample& e)
{
    const auto it = std::find(e.target.begin(), e.target.end(), 1);
    if (it == e.target.end()) throw std::invalid_argument("decoderTargetNll: an example has no target token");
    return static_cast<std::size_t>(it - e.target.begin());
}

double logProbOf(std::span<const float> logits, int token)
{
    return logits[static_cast<std::size_t>(token)] - logSumExp(logits);
}

// One group in rows 0..n-1: prefill up to each first target, then decode in
// lockstep; a row that has no more tokens repeats its last position, and its
// logits are ignored.
void scoreGroup(Decoder& decoder, std::span<const TrainingExample> group, double& total, long& count)
{
    const auto vocab = static_cast<std::size_t>(decoder.vocabSize());
    std::vector<PrefillItem> prompts;
    std::vector<std::size_t> at; // index of the last token fed to each row
    for (std::size_t r = 0; r < group.size(); ++r) {
        const std::size_t p = firstTarget(group[r]);
        prompts.push_back({static_cast<int>(r), std::vector<int>(group[r].tokens.begin(), group[r].tokens.begin() + static_cast<std::ptrdiff_t>(p) + 1)});
        at.push_back(p);
    }
    std::vector<float> logits;
    decoder.prefill(prompts, logits);
    std::vector<DecodeItem> items(group.size());
    std::vector<char> done(group.size(), 0);
    while (true) {
        bool more = false;
        for (std::size_t r = 0; r < group.size(); ++r) {
            const auto& e = group[r];
            if (!done[r]) {
                const std::size_t i = at[r];
                if (i + 1 < e.tokens.size() && e.target[i]) {
                    total -= logProbOf(std::span<const float>(logits.data() + r * vocab, vocab), e.tokens[i + 1]);
                    ++count;
                }
                if (i + 2 < e.tokens.size()) ++at[r];
                else done[r] = 1;
            }
            more = more || !done[r];
            items[r] = {static_cast<int>(r), e.tokens[at[r]], static_cast<int>(at[r])};
        }
        if (!more) return;
        decoder.decode(items, logits);
    }
}

} // namespace

double decoderTargetNll(Decoder& decoder, const std::vector<TrainingExample>& examples, int rows)
{
    if (rows <= 0) throw std::invalid_argument("decoderTargetNll: rows must be positive");
    decoder.reserveRows(std::max(decoder.rowCapacity(), rows));
    double total = 0;
    long count = 0;
    for (std::size_t b = 0; b < examples.size(); b += static_cast<std::size_t>(rows)) {
        const std::size_t n = std::min(examples.size() - b, static_cast<std::size_t>(rows));
        scoreGroup(decoder, std::span<const TrainingExample>(examples.data() + b, n), total, count);
    }
    return count > 0 ? total / static_cast<double>(count) : 0;
}

} // namespace couplet
