#include "check.h"

#include "sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace couplet;

namespace {

std::vector<float> randomLogits(std::size_t n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> d(0.0f, 3.0f);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

double referenceLogSumExp(const std::vector<float>& v)
{
    double top = -std::numeric_limits<double>::infinity();
    for (float x : v) top = std::max(top, static_cast<double>(x));
    double sum = 0;
    for (float x : v) sum += std::exp(static_cast<double>(x) - top);
    return top + std::log(sum);
}

// What Sampler::choose must pick, written the plain way: the top-k of the
// biased scores over `allowed` (ties to the larger id) by a full sort, the
// top-p prefix and std::discrete_distribution on the same generator.
int referenceChoice(const std::vector<float>& logits, const std::vector<int>& allowed, const std::vector<float>& bias,
                    const SamplingSettings& s, std::mt19937_64& rng, const std::vector<int>& penalised = {})
{
    std::vector<float> scores(logits.size());
    for (std::size_t i = 0; i < logits.size(); ++i) scores[i] = logits[i] + bias[i];
    for (int id : penalised) {
        float& x = scores[static_cast<std::size_t>(id)];
        x = x > 0 ? x / s.repetitionPenalty : x * s.repetitionPenalty;
    }
    std::vector<std::pair<float, int>> scored;
    for (int id : allowed) scored.push_back({scores[static_cast<std::size_t>(id)], id});
    std::sort(scored.begin(), scored.end(), std::greater<>());
    if (s.greedy) return scored.front().second;
    if (s.topK > 0 && scored.size() > static_cast<std::size_t>(s.topK)) scored.resize(static_cast<std::size_t>(s.topK));
    std::vector<double> p;
    double sum = 0;
    for (const auto& [x, id] : scored) sum += p.emplace_back(std::exp((x - scored[0].first) / s.temperature));
    std::size_t keep = p.size();
    double acc = 0;
    for (std::size_t i = 0; i < p.size() && s.topP < 1.0f; ++i)
        if ((acc += p[i] / sum) >= s.topP) {
            keep = i + 1;
            break;
        }
    std::discrete_distribution<std::size_t> pick(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(keep));
    return scored[pick(rng)].second;
}

} // namespace

// Every length (the 16-wide loop, its tail, and a vocabulary's 7,254).
COUPLET_TEST(logSumExpMatchesDoublePrecision)
{
    for (std::size_t n : {1u, 7u, 16u, 17u, 33u, 255u, 7254u}) {
        auto v = randomLogits(n, n);
        if (n > 20) v[3] = -std::numeric_limits<float>::infinity(); // a masked token
        const double got = logSumExp(v), want = referenceLogSumExp(v);
        CHECK(std::fabs(got - want) < 1e-5);
    }
}

// The chosen token and its log-probability equal the plain computation's,
// over many rows, seeds and settings (greedy, top-k, top-p, top-k off), for
// allowed sets of every size and order, with ties in the scores.
COUPLET_TEST(choosesWhatThePlainComputationChooses)
{
    constexpr std::size_t kVocab = 7254;
    int rows = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        auto logits = randomLogits(kVocab, seed);
        // Ties where the top-k boundary falls: 119 tokens share the highest score.
        for (std::size_t i = 0; i < kVocab; i += 61) logits[i] = 12.0f;
        std::vector<float> bias(kVocab, 0.0f);
        for (std::size_t i = seed; i < kVocab; i += 331) bias[i] = i % 61 == 0 ? 0.0f : 1.5f;
        std::mt19937_64 shape(seed);
        std::vector<int> allowed;
        const std::size_t size = seed % 3 == 0 ? kVocab - seed : 1 + shape() % (seed % 2 == 0 ? 40 : 3000);
        for (std::size_t i = 0; i < kVocab; ++i) allowed.push_back(static_cast<int>(i));
        std::shuffle(allowed.begin(), allowed.end(), shape);
        allowed.resize(size);
        if (seed % 4 == 0) std::sort(allowed.begin(), allowed.end());
        SamplingSettings s;
        s.seed = seed;
        s.repetitionPenalty = 1.0f;
        s.greedy = seed % 5 == 0;
        s.topK = seed % 7 == 0 ? 0 : 40;
        s.topP = seed % 6 == 0 ? 1.0f : 0.9f;
        Sampler sampler(s), masked(s);
        const TokenMask mask(kVocab, allowed);
        std::mt19937_64 rng(seed);
        for (int step = 0; step < 5; ++step, ++rows) {
            double logProb = 0, maskedLogProb = 0;
            const int got = sampler.choose(logits, allowed, {}, bias, logProb);
            const int want = allowed.size() == 1 ? allowed.front() : referenceChoice(logits, allowed, bias, s, rng);
            CHECK_EQ(got, want);
            // The same set given as a mask too: the same choice.
            CHECK_EQ(masked.choose(logits, allowed, {}, bias, maskedLogProb, &mask), want);
            CHECK(std::fabs(logProb - (logits[static_cast<std::size_t>(got)] - referenceLogSumExp(logits))) < 1e-5);
        }
    }
    CHECK_EQ(rows, 300);
}

// With a repetition penalty the choice is still the plain computation's:
// every penalised score damped (twice for a token used twice) before the
// top-k, where the sampler damps only the best candidates. The penalised
// tokens are among the best here, so that damping changes the top-k.
COUPLET_TEST(theRepetitionPenaltyChoosesAsDampingEveryScore)
{
    constexpr std::size_t kVocab = 7254;
    int changed = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        auto logits = randomLogits(kVocab, seed + 100);
        std::vector<float> bias(kVocab, 0.0f);
        for (std::size_t i = seed; i < kVocab; i += 97) bias[i] = 1.0f;
        std::vector<int> allowed;
        for (std::size_t i = 0; i < kVocab; i += 1 + seed % 3) allowed.push_back(static_cast<int>(i));
        // The line so far: the allowed tokens of the highest scores, one twice.
        std::vector<std::pair<float, int>> best;
        for (int id : allowed) best.push_back({logits[static_cast<std::size_t>(id)] + bias[static_cast<std::size_t>(id)], id});
        std::sort(best.begin(), best.end(), std::greater<>());
        std::vector<int> line;
        for (std::size_t i = 0; i < 1 + seed % 8; ++i) line.push_back(best[i * (1 + seed % 3)].second);
        line.push_back(line.front());
        SamplingSettings s;
        s.seed = seed;
        s.repetitionPenalty = 1.0f + 0.05f * static_cast<float>(seed % 20);
        s.greedy = seed % 3 == 0;
        s.topK = seed % 4 == 0 ? 3 : 40;
        s.topP = 0.9f;
        Sampler sampler(s), masked(s);
        const TokenMask mask(kVocab, allowed);
        std::mt19937_64 rng(seed);
        for (int step = 0; step < 5; ++step) {
            double logProb = 0;
            const int got = sampler.choose(logits, allowed, line, bias, logProb);
            CHECK_EQ(got, referenceChoice(logits, allowed, bias, s, rng, line));
            CHECK_EQ(masked.choose(logits, allowed, line, bias, logProb, &mask), got);
            if (s.greedy && s.repetitionPenalty > 1.0f && got != best.front().second) ++changed;
        }
    }
    CHECK(changed > 0); // the penalty did move greedy choices off the top score
}

// A non-finite logit among the allowed tokens is an error, wherever it is;
// outside them it does not matter.
COUPLET_TEST(aNonFiniteAllowedLogitIsAnError)
{
    std::vector<int> allowed;
    for (int i = 0; i < 500; ++i) allowed.push_back(i);
    for (int at : {0, 39, 40, 41, 200, 499}) {
        auto logits = randomLogits(1000, static_cast<std::uint64_t>(at) + 1);
        logits[static_cast<std::size_t>(at)] = std::numeric_limits<float>::quiet_NaN();
        for (bool greedy : {false, true}) {
            SamplingSettings s;
            s.seed = 3;
            s.greedy = greedy;
            const TokenMask mask(logits.size(), allowed);
            for (const TokenMask* m : {static_cast<const TokenMask*>(nullptr), &mask}) {
                Sampler sampler(s);
                double logProb = 0;
                std::string error;
                try {
                    sampler.choose(logits, allowed, {}, {}, logProb, m);
                } catch (const std::runtime_error& e) {
                    error = e.what();
                }
                CHECK(error.find("non-finite") != std::string::npos);
            }
        }
        logits[static_cast<std::size_t>(at)] = 0.0f;
        logits[700] = std::numeric_limits<float>::infinity() * 0.0f; // NaN outside the allowed set
        SamplingSettings s;
        s.seed = 3;
        Sampler sampler(s);
        double logProb = 0;
        const int t = sampler.choose(logits, allowed, {}, logProb);
        CHECK(t >= 0 && t < 500);
        const TokenMask mask(logits.size(), allowed);
        Sampler masked(s);
        CHECK_EQ(masked.choose(logits, allowed, {}, {}, logProb, &mask), t);
    }
}

// Consecutive seeds share no candidate (with seed + index, --seed 1 to 16
// reranked to 6 distinct couplets for 五福), and every seed made can be
// passed back to --seed.
COUPLET_TEST(consecutiveSeedsShareNoCandidate)
{
    std::set<std::uint64_t> seen;
    int made = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        CHECK_EQ(candidateSeed(seed, 0), seed);
        for (int index = 1; index < 16; ++index) {
            const std::uint64_t s = candidateSeed(seed, index);
            CHECK(s >= 1 && s <= kMaxMadeSeed);
            CHECK_EQ(candidateSeed(seed, index), s); // a function of its arguments
            seen.insert(s);
            ++made;
        }
    }
    for (std::uint64_t seed = 1; seed <= 300; ++seed) seen.insert(seed);
    CHECK_EQ(static_cast<int>(seen.size()), made + 300);

    // A large request seed scatters too, and stays in range.
    const std::uint64_t big = (std::uint64_t{1} << 53) - 1;
    CHECK(candidateSeed(big, 1) <= kMaxMadeSeed);
    CHECK(candidateSeed(big, 1) != candidateSeed(big, 2));

    // An unseeded sampler picks its own seed, also one --seed takes back.
    for (int i = 0; i < 50; ++i) {
        const std::uint64_t s = Sampler(SamplingSettings{}).seed();
        CHECK(s >= 1 && s <= kMaxMadeSeed);
    }
}
