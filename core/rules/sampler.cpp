#include "sampler.h"

#include "fast_exp.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace couplet {

namespace {

using Scored = std::pair<float, int>; // (score, token)

// Penalised tokens the top-k heap has room for without growing: a line's characters.
constexpr std::size_t kPenalisedRoom = 48;

// A score under the repetition penalty: a positive one divided by it, a negative one multiplied.
inline float damped(float x, float penalty)
{
    return x > 0 ? x / penalty : x * penalty;
}

// A token's score before the repetition penalty: its logit plus its bias,
// read where needed instead of copying the vocabulary's row.
struct Scores {
    const float* logits;
    const float* bias; // null = none
    float at(int id) const
    {
        const auto i = static_cast<std::size_t>(id);
        return bias ? logits[i] + bias[i] : logits[i];
    }
};

float checkedScore(const Scores& scores, int id)
{
    const float x = scores.at(id);
    if (!std::isfinite(x)) throw std::runtime_error("the model produced a non-finite logit");
    return x;
}

void collectAll(const Scores& scores, const std::vector<int>& allowed, std::vector<Scored>& out)
{
    out.clear();
    for (int id : allowed) out.push_back({checkedScore(scores, id), id});
}

// Offers (x, id) to the min-heap `out` of the k best so far; `worst` is its front.
inline void offer(std::vector<Scored>& out, std::size_t k, Scored& worst, float x, int id)
{
    if (out.size() < k) {
        out.push_back({x, id});
        if (out.size() < k) return;
        std::make_heap(out.begin(), out.end(), std::greater<>());
    } else if (x > worst.first || (x == worst.first && id > worst.second)) {
        std::pop_heap(out.begin(), out.end(), std::greater<>());
        out.back() = {x, id};
        std::push_heap(out.begin(), out.end(), std::greater<>());
    } else {
        return;
    }
    worst = out.front();
}

#ifdef COUPLET_X86_KERNELS
// The loop of collectTopK from `from` on, 16 tokens at a time: a block none
// of whose scores reaches the k-th best so far is passed over in a few
// instructions, the rest go through offer() in order. The heap sees the same
// offers in the same order as the scalar loop (what is passed over, it would
// reject), so the result is the same, not only the same set.
__attribute__((target("avx512f,avx512dq"))) void topKBlocksAvx512(const Scores& scores, const int* ids, std::size_t from,
                                                                  std::size_t n, std::size_t k, std::vector<Scored>& out,
                                                                  Scored& worst)
{
    constexpr int kNotFinite = 0x01 | 0x08 | 0x10 | 0x80; // NaN, +inf, -inf (vfpclassps classes)
    std::size_t i = from;
    for (; i + 16 <= n; i += 16) {
        const __m512i idx = _mm512_loadu_si512(ids + i);
        __m512 x = _mm512_i32gather_ps(idx, scores.logits, 4);
        if (scores.bias) x = _mm512_add_ps(x, _mm512_i32gather_ps(idx, scores.bias, 4));
        if (_mm512_fpclass_ps_mask(x, kNotFinite) != 0) {
            for (std::size_t j = i; j < i + 16; ++j) offer(out, k, worst, checkedScore(scores, ids[j]), ids[j]);
            continue;
        }
        __mmask16 reach = _mm512_cmp_ps_mask(x, _mm512_set1_ps(worst.first), _CMP_GE_OQ);
        while (reach != 0) {
            const int lane = __builtin_ctz(reach);
            reach = static_cast<__mmask16>(reach & (reach - 1));
            const int id = ids[i + static_cast<std::size_t>(lane)];
            offer(out, k, worst, scores.at(id), id);
        }
    }
    for (; i < n; ++i) offer(out, k, worst, checkedScore(scores, ids[i]), ids[i]);
}

// collectTopK over a mask instead of a list: each word of the mask selects
// up to 16 consecutive tokens, loaded together (masked lanes are not read).
// A block none of whose selected scores reaches the k-th best so far is
// passed over; the rest go through offer(), which finds the same k best
// pairs in any order of offers.
__attribute__((target("avx512f,avx512dq"))) void topKDenseAvx512(const Scores& scores, const TokenMask& mask,
                                                                 std::size_t k, std::vector<Scored>& out)
{
    constexpr int kNotFinite = 0x01 | 0x08 | 0x10 | 0x80;
    out.clear();
    Scored worst{0.0f, 0};
    const std::uint16_t* words = mask.words();
    const std::size_t blocks = (mask.vocab() + 15) / 16;
    for (std::size_t b = 0; b < blocks; ++b) {
        const __mmask16 m = words[b];
        if (m == 0) continue;
        const std::size_t base = b * 16;
        __m512 x = _mm512_maskz_loadu_ps(m, scores.logits + base);
        if (scores.bias) x = _mm512_add_ps(x, _mm512_maskz_loadu_ps(m, scores.bias + base));
        const bool full = out.size() >= k;
        if (!full || _mm512_mask_fpclass_ps_mask(m, x, kNotFinite) != 0) {
            for (__mmask16 lanes = m; lanes != 0; lanes = static_cast<__mmask16>(lanes & (lanes - 1))) {
                const int id = static_cast<int>(base) + __builtin_ctz(lanes);
                offer(out, k, worst, checkedScore(scores, id), id);
            }
            continue;
        }
        __mmask16 reach = _mm512_mask_cmp_ps_mask(m, x, _mm512_set1_ps(worst.first), _CMP_GE_OQ);
        while (reach != 0) {
            const int id = static_cast<int>(base) + __builtin_ctz(reach);
            reach = static_cast<__mmask16>(reach & (reach - 1));
            offer(out, k, worst, scores.at(id), id);
        }
    }
}

__attribute__((target("avx512f,avx512dq"))) double logSumExpAvx512(const float* x, std::size_t n)
{
    __m512 m = _mm512_set1_ps(-INFINITY);
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) m = _mm512_max_ps(m, _mm512_loadu_ps(x + i));
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, m); // (GCC 12's _mm512_reduce_* warn of an uninitialised temporary)
    float top = *std::max_element(lanes, lanes + 16);
    for (; i < n; ++i) top = std::max(top, x[i]);
    const __m512 t = _mm512_set1_ps(top);
    __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
    for (i = 0; i + 16 <= n; i += 16) {
        const __m512 e = expAvx512(_mm512_sub_ps(_mm512_loadu_ps(x + i), t));
        lo = _mm512_add_pd(lo, _mm512_cvtps_pd(_mm512_castps512_ps256(e)));
        hi = _mm512_add_pd(hi, _mm512_cvtps_pd(_mm512_extractf32x8_ps(e, 1)));
    }
    alignas(64) double sums[8];
    _mm512_store_pd(sums, _mm512_add_pd(lo, hi));
    double sum = 0;
    for (double v : sums) sum += v;
    for (; i < n; ++i) sum += static_cast<double>(expApprox(x[i] - top));
    return top + std::log(sum);
}

// The AVX2 forms of the three loops above (CPUs without AVX-512), 8 tokens
// at a time, with the same offers in the same order.
#define COUPLET_AVX2 __attribute__((target("avx2,fma")))

// Lanes of x that are NaN or infinite: |x| not below infinity, or unordered.
COUPLET_AVX2 inline int notFinite8(__m256 x)
{
    const __m256 magnitude = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);
    return _mm256_movemask_ps(_mm256_cmp_ps(magnitude, _mm256_set1_ps(INFINITY), _CMP_NLT_UQ));
}

COUPLET_AVX2 void topKBlocksAvx2(const Scores& scores, const int* ids, std::size_t from, std::size_t n, std::size_t k,
                                 std::vector<Scored>& out, Scored& worst)
{
    std::size_t i = from;
    for (; i + 8 <= n; i += 8) {
        const __m256i idx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ids + i));
        __m256 x = _mm256_i32gather_ps(scores.logits, idx, 4);
        if (scores.bias) x = _mm256_add_ps(x, _mm256_i32gather_ps(scores.bias, idx, 4));
        if (notFinite8(x) != 0) {
            for (std::size_t j = i; j < i + 8; ++j) offer(out, k, worst, checkedScore(scores, ids[j]), ids[j]);
            continue;
        }
        int reach = _mm256_movemask_ps(_mm256_cmp_ps(x, _mm256_set1_ps(worst.first), _CMP_GE_OQ));
        while (reach != 0) {
            const int lane = __builtin_ctz(static_cast<unsigned>(reach));
            reach &= reach - 1;
            const int id = ids[i + static_cast<std::size_t>(lane)];
            offer(out, k, worst, scores.at(id), id);
        }
    }
    for (; i < n; ++i) offer(out, k, worst, checkedScore(scores, ids[i]), ids[i]);
}

// Each half of a mask word selects up to 8 consecutive tokens, loaded
// together by a masked load (the lanes it leaves out are not read).
COUPLET_AVX2 void topKDenseAvx2(const Scores& scores, const TokenMask& mask, std::size_t k, std::vector<Scored>& out)
{
    out.clear();
    Scored worst{0.0f, 0};
    const std::uint16_t* words = mask.words();
    const std::size_t blocks = (mask.vocab() + 7) / 8;
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    for (std::size_t b = 0; b < blocks; ++b) {
        const unsigned m = (static_cast<unsigned>(words[b / 2]) >> (8 * (b % 2))) & 0xffu;
        if (m == 0) continue;
        const std::size_t base = b * 8;
        const __m256i lanes = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(m)), bit), bit);
        __m256 x = _mm256_maskload_ps(scores.logits + base, lanes);
        if (scores.bias) x = _mm256_add_ps(x, _mm256_maskload_ps(scores.bias + base, lanes));
        if (out.size() < k || (notFinite8(x) & static_cast<int>(m)) != 0) {
            for (unsigned l = m; l != 0; l &= l - 1) {
                const int id = static_cast<int>(base) + __builtin_ctz(l);
                offer(out, k, worst, checkedScore(scores, id), id);
            }
            continue;
        }
        unsigned reach = static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(x, _mm256_set1_ps(worst.first), _CMP_GE_OQ))) & m;
        while (reach != 0) {
            const int id = static_cast<int>(base) + __builtin_ctz(reach);
            reach &= reach - 1;
            offer(out, k, worst, scores.at(id), id);
        }
    }
}

COUPLET_AVX2 double logSumExpAvx2(const float* x, std::size_t n)
{
    __m256 m = _mm256_set1_ps(-INFINITY);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) m = _mm256_max_ps(m, _mm256_loadu_ps(x + i));
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, m);
    float top = *std::max_element(lanes, lanes + 8);
    for (; i < n; ++i) top = std::max(top, x[i]);
    const __m256 t = _mm256_set1_ps(top);
    __m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
    for (i = 0; i + 8 <= n; i += 8) {
        const __m256 e = expAvx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), t));
        lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm256_castps256_ps128(e)));
        hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm256_extractf128_ps(e, 1)));
    }
    alignas(32) double sums[4];
    _mm256_store_pd(sums, _mm256_add_pd(lo, hi));
    double sum = sums[0] + sums[1] + sums[2] + sums[3];
    for (; i < n; ++i) sum += static_cast<double>(expApprox(x[i] - top));
    return top + std::log(sum);
}
#endif

// The k best (score, token) pairs of `allowed`, unordered. Pairs are distinct,
// so this is exactly the set nth_element would select; a min-heap of the best
// k so far finds it in one pass where most tokens are rejected by a single
// comparison, instead of partitioning all 7,000 candidates every token.
// k = 1 is the greedy choice: the largest pair.
void collectTopK(const Scores& scores, const std::vector<int>& allowed, std::size_t k,
                 std::vector<Scored>& out)
{
    out.clear();
    Scored worst{0.0f, 0}; // the heap's front: the k-th best so far, kept in registers
    std::size_t i = 0;
    for (; i < allowed.size() && out.size() < k; ++i) offer(out, k, worst, checkedScore(scores, allowed[i]), allowed[i]);
#ifdef COUPLET_X86_KERNELS
    if (cpuHasAvx512()) return topKBlocksAvx512(scores, allowed.data(), i, allowed.size(), k, out, worst);
    if (cpuHasAvx2()) return topKBlocksAvx2(scores, allowed.data(), i, allowed.size(), k, out, worst);
#endif
    for (; i < allowed.size(); ++i) offer(out, k, worst, checkedScore(scores, allowed[i]), allowed[i]);
}

// The k best (score, token) pairs of the tokens in `mask`: collectTopK's set.
void collectTopKMasked(const Scores& scores, const TokenMask& mask, std::size_t k, std::vector<Scored>& out)
{
#ifdef COUPLET_X86_KERNELS
    if (cpuHasAvx512()) return topKDenseAvx512(scores, mask, k, out);
    if (cpuHasAvx2()) return topKDenseAvx2(scores, mask, k, out);
#endif
    out.clear();
    Scored worst{0.0f, 0};
    for (std::size_t id = 0; id < mask.vocab(); ++id)
        if (mask.has(static_cast<int>(id))) offer(out, k, worst, checkedScore(scores, static_cast<int>(id)), static_cast<int>(id));
}

// The draw std::discrete_distribution(p[0..n)) makes in libstdc++, in place
// and without its two allocations per call: weights normalised by their sum,
// cumulated, the last set to exactly 1, and the first entry not below one
// canonical double; a single entry draws nothing. test_sampler checks it
// against std::discrete_distribution on the same generator.
std::size_t drawIndex(std::vector<double>& p, std::size_t n, std::mt19937_64& rng)
{
    if (n < 2) return 0;
    const double sum = std::accumulate(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(n), 0.0);
    double cumulative = 0;
    for (std::size_t i = 0; i < n; ++i) p[i] = cumulative += p[i] / sum;
    p[n - 1] = 1.0;
    const double u = std::generate_canonical<double, std::numeric_limits<double>::digits>(rng);
    return static_cast<std::size_t>(std::lower_bound(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(n), u) - p.begin());
}

} // namespace

double logSumExp(std::span<const float> logits)
{
#ifdef COUPLET_X86_KERNELS
    if (cpuHasAvx512()) return logSumExpAvx512(logits.data(), logits.size());
    if (cpuHasAvx2()) return logSumExpAvx2(logits.data(), logits.size());
#endif
    constexpr std::size_t kLanes = 8;
    const float top = *std::max_element(logits.begin(), logits.end());
    // Independent partial sums: a single running sum is a serial dependency
    // the compiler may not reorder, so it could not vectorise the loop.
    double lanes[kLanes] = {};
    std::size_t i = 0;
    for (; i + kLanes <= logits.size(); i += kLanes)
        for (std::size_t j = 0; j < kLanes; ++j) lanes[j] += static_cast<double>(expApprox(logits[i + j] - top));
    double sum = 0;
    for (; i < logits.size(); ++i) sum += static_cast<double>(expApprox(logits[i] - top));
    for (double lane : lanes) sum += lane;
    return top + std::log(sum);
}

std::uint64_t candidateSeed(std::uint64_t seed, int index)
{
    if (index == 0) return seed;
    std::uint64_t z = seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(index) * 0xd1b54a32d192ed03ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    z &= kMaxMadeSeed;
    return z != 0 ? z : 1;
}

Sampler::Sampler(const SamplingSettings& settings)
    : m_settings(settings), m_seed(settings.seed != 0 ? settings.seed : (std::random_device{}() & kMaxMadeSeed) | 1), m_rng(m_seed)
{
    // The top-k heap and its probabilities are sized once, so that steps do
    // not allocate; the heap also holds a line's penalised tokens.
    const auto k = static_cast<std::size_t>(std::max(1, settings.topK)) + 1 + kPenalisedRoom;
    m_work.reserve(k);
    m_probs.reserve(k);
}

int Sampler::choose(std::span<const float> logits, const std::vector<int>& allowed, const std::vector<int>& penalised,
                    double& logProb)
{
    static const std::vector<float> kNoBias;
    return choose(logits, allowed, penalised, kNoBias, logProb);
}

int Sampler::choose(std::span<const float> logits, const std::vector<int>& allowed, const std::vector<int>& penalised,
                    const std::vector<float>& bias, double& logProb, const TokenMask* mask)
{
    if (allowed.empty()) throw std::logic_error("no token is allowed here");
    // Bias and repetition penalty change scores, not the model's
    // probabilities reported in logProb. The scores are read from the logits
    // and the bias as needed; a bias shorter than the vocabulary (none of
    // the engine's) goes through a copy.
    Scores scores{logits.data(), bias.size() >= logits.size() ? bias.data() : nullptr};
    if (!bias.empty() && bias.size() < logits.size()) {
        m_scores.assign(logits.begin(), logits.end());
        for (std::size_t i = 0; i < bias.size(); ++i) m_scores[i] += bias[i];
        scores = {m_scores.data(), nullptr};
    }
    const float penalty = m_settings.repetitionPenalty;
    const bool penalising = penalty > 0 && penalty != 1.0f && !penalised.empty();
    if (penalising && penalty < 1.0f) {
        // A penalty below 1 raises scores: no shortcut, a patched copy.
        if (scores.logits != m_scores.data()) {
            m_scores.resize(logits.size());
            for (std::size_t i = 0; i < logits.size(); ++i) m_scores[i] = scores.at(static_cast<int>(i));
            scores = {m_scores.data(), nullptr};
        }
        for (int id : penalised) m_scores[static_cast<std::size_t>(id)] = damped(m_scores[static_cast<std::size_t>(id)], penalty);
    }
    const bool damping = penalising && penalty > 1.0f;
    const bool sample = !m_settings.greedy && allowed.size() > 1;
    const auto k = sample ? static_cast<std::size_t>(std::max(0, m_settings.topK)) : std::size_t{1};
    // A penalty above 1 only lowers scores, so the k best after it are among
    // the k + (penalised tokens) best before it: those are collected, damped
    // once per use, and the k best of them kept. The same set as damping
    // every score first, without a pass over the vocabulary.
    const std::size_t wide = damping ? k + penalised.size() : k;
    if (k > 0 && allowed.size() > wide) {
        if (mask && mask->vocab() == logits.size()) collectTopKMasked(scores, *mask, wide, m_work);
        else collectTopK(scores, allowed, wide, m_work);
    } else {
        collectAll(scores, allowed, m_work);
    }
    if (damping) {
        for (auto& [x, id] : m_work)
            for (int p : penalised)
                if (p == id) x = damped(x, penalty);
        if (k > 0 && m_work.size() > k) {
            std::nth_element(m_work.begin(), m_work.begin() + static_cast<std::ptrdiff_t>(k - 1), m_work.end(), std::greater<>());
            m_work.resize(k);
        }
    }

    int chosen = 0;
    if (!sample) {
        chosen = std::max_element(m_work.begin(), m_work.end())->second;
    } else {
        const float t = std::max(1e-3f, m_settings.temperature);
        std::sort(m_work.begin(), m_work.end(), std::greater<>());
        std::vector<double>& p = m_probs;
        p.resize(m_work.size());
        double sum = 0;
        for (std::size_t i = 0; i < m_work.size(); ++i) sum += p[i] = std::exp((m_work[i].first - m_work[0].first) / t);
        // Keep the smallest prefix whose mass reaches topP.
        std::size_t keep = p.size();
        if (m_settings.topP < 1.0f) {
            double acc = 0;
            for (std::size_t i = 0; i < p.size(); ++i)
                if ((acc += p[i] / sum) >= m_settings.topP) {
                    keep = i + 1;
                    break;
                }
        }
        chosen = m_work[drawIndex(p, keep, m_rng)].second;
    }
    logProb = logits[chosen] - logSumExp(logits);
    return chosen;
}

} // namespace couplet
