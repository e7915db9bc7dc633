#pragma once

#include <array>
#include <string>
#include <vector>

namespace couplet {

// Corpus-level character BLEU-2: clipped unigram and bigram precision of the
// generated lines against their references, geometric mean, brevity penalty.
class Bleu2 {
public:
    void add(const std::u32string& generated, const std::u32string& reference);
    // In [0, 1]; 0 before anything was added.
    double score() const;

private:
    std::array<double, 2> m_matches{}, m_totals{};
    double m_generatedLength = 0, m_referenceLength = 0;
};

// Distinct-2 of a set of texts: distinct character bigrams (within a text,
// across texts) over all bigrams, in [0, 1]; 1 when no bigram repeats.
double distinct2(const std::vector<std::u32string>& texts);

} // namespace couplet
