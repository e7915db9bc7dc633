#pragma once

#include "generation_spec.h"
#include "token_mask.h"

#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace couplet {

// Picks a token from next-token logits over an allowed set: repetition
// penalty, temperature, top-k and top-p, or argmax when greedy. Owns its
// random generator so a seed reproduces the same text whatever the batch.
class Sampler {
public:
    explicit Sampler(const SamplingSettings& settings);

    // logits: [vocab]; allowed: token ids that may be chosen (not empty);
    // penalised: tokens already used, whose logits are damped.
    // Returns the chosen token; logProb receives its log-probability under
    // the unmodified model distribution.
    int choose(std::span<const float> logits, const std::vector<int>& allowed, const std::vector<int>& penalised,
               double& logProb);
    // Per-token additive bias applied before sampling (e.g. theme bonus).
    // `mask`, when given, holds the same set as `allowed` (for the whole
    // vocabulary of `logits`): the top-k then scans the logits 16 at a time
    // instead of gathering the ids. The choice is the same either way.
    int choose(std::span<const float> logits, const std::vector<int>& allowed, const std::vector<int>& penalised,
               const std::vector<float>& bias, double& logProb, const TokenMask* mask = nullptr);

    std::uint64_t seed() const { return m_seed; }

private:
    SamplingSettings m_settings;
    std::uint64_t m_seed;
    std::mt19937_64 m_rng;
    std::vector<float> m_scores;
    std::vector<std::pair<float, int>> m_work;
    std::vector<double> m_probs;
};

// Seeds the engine makes (a request's own random seed, and candidateSeed's)
// stay in [1, kMaxMadeSeed], so that `--seed` (an int) takes back any seed a
// couplet reports.
inline constexpr std::uint64_t kMaxMadeSeed = 0x7fffffff;

// The seed of the index-th candidate of a request seeded `seed` (not 0).
// Candidate 0 keeps the seed itself, so one sample with --seed S is the
// couplet S names. The others are scattered (splitmix64 of the seed and the
// index, in [1, kMaxMadeSeed]), so that --seed S and --seed S+1 share no
// candidate: with seed + index they shared all but one.
std::uint64_t candidateSeed(std::uint64_t seed, int index);

// log(sum(exp(logits))) over the whole vocabulary.
double logSumExp(std::span<const float> logits);

} // namespace couplet
