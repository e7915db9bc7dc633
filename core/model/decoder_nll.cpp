#include "decoder_nll.h"

#include "align_table.h"
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
// logits are ignored. Adds each row's negative log-likelihood and target
// count to total[r] and count[r]; row r is example first + r to `bias`.
void scoreGroup(Decoder& decoder, std::span<const TrainingExample> group, std::size_t first, const TargetLogitBias& bias,
                std::span<double> total, std::span<long> count)
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
                    const std::span<float> row(logits.data() + r * vocab, vocab);
                    if (bias) bias(first + r, static_cast<std::size_t>(count[r]), row);
                    total[r] -= logProbOf(row, e.tokens[i + 1]);
                    ++count[r];
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

// Every example's total and target count.
void scoreAll(Decoder& decoder, const std::vector<TrainingExample>& examples, int rows, const TargetLogitBias& bias,
              std::vector<double>& total, std::vector<long>& count)
{
    if (rows <= 0) throw std::invalid_argument("decoderTargetNll: rows must be positive");
    total.assign(examples.size(), 0);
    count.assign(examples.size(), 0);
    if (examples.empty()) return;
    decoder.reserveRows(std::max(decoder.rowCapacity(), rows));
    for (std::size_t b = 0; b < examples.size(); b += static_cast<std::size_t>(rows)) {
        const std::size_t n = std::min(examples.size() - b, static_cast<std::size_t>(rows));
        scoreGroup(decoder, std::span<const TrainingExample>(examples.data() + b, n), b, bias,
                   std::span<double>(total.data() + b, n),
                   std::span<long>(count.data() + b, n));
    }
}

} // namespace

double decoderTargetNll(Decoder& decoder, const std::vector<TrainingExample>& examples, int rows,
                        const TargetLogitBias& bias)
{
    std::vector<double> total;
    std::vector<long> count;
    scoreAll(decoder, examples, rows, bias, total, count);
    double sum = 0;
    long n = 0;
    for (std::size_t i = 0; i < total.size(); ++i) {
        sum += total[i];
        n += count[i];
    }
    return n > 0 ? sum / static_cast<double>(n) : 0;
}

std::vector<double> decoderTargetNlls(Decoder& decoder, const std::vector<TrainingExample>& examples, int rows,
                                      const TargetLogitBias& bias)
{
    std::vector<double> total;
    std::vector<long> count;
    scoreAll(decoder, examples, rows, bias, total, count);
    for (std::size_t i = 0; i < total.size(); ++i) total[i] = count[i] > 0 ? total[i] / static_cast<double>(count[i]) : 0;
    return total;
}

TargetLogitBias alignFusionBias(const AlignTable& table, float weight, const std::vector<std::vector<int>>& upperLines)
{
    return [&table, weight, &upperLines](std::size_t example, std::size_t target, std::span<float> logits) {
        const auto& upper = upperLines.at(example);
        if (target >= upper.size()) return;
        for (const auto& e : table.row(upper[target])) logits[static_cast<std::size_t>(e.token)] += weight * e.score;
    };
}

} // namespace couplet
