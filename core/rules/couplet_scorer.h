#pragma once

#include "generation_spec.h"

#include <string>
#include <vector>

namespace couplet {

class AlignTable;
class ToneTable;
class Vocab;

// How much each term of the reranking score counts (see ScoreParts).
struct ScoreWeights {
    double duizhang = 0.1;   // per unit of mean 对仗 pair score (about 0 to 8)
    double tone = 0.6;       // for a 平仄 pattern that keeps every rule
    double keywords = 1.5;   // for every keyword present
    double repetition = 0.3; // per character repeated within a line other than 叠字
    double cliche = 0.6;     // for a candidate all of whose phrases every other one shares
    double backward = 0;     // per unit of Couplet::backwardLogProb (CoupletModel::rerank sets it)
};

// Scores finished candidates of one prompt and ranks them: the model's mean
// log-probability plus 对仗 (the align table), 平仄, keyword coverage, and
// penalties for repeated characters and for phrases the other candidates share.
class CoupletScorer {
public:
    // align may be null (no table: the 对仗 term is 0).
    CoupletScorer(const Vocab& vocab, const ToneTable& tones, const AlignTable* align, ScoreWeights weights = {});

    // Fills parts and score of every candidate (parts.logProb must be set, and
    // backwardLogProb where the backward weight is not 0) and sorts them best first.
    void rerank(std::vector<Couplet>& candidates, const std::vector<std::u32string>& keywords) const;
    // Keeps the best n of ranked candidates, passing over exact repeats of a
    // better one while enough others remain; the order stays best first.
    static void keepBest(std::vector<Couplet>& ranked, std::size_t n);

    // Share of the 平仄 rules kept, in [0, 1]: tones alternate at positions
    // 2, 4, 6 ... within a line and are opposite between the lines there;
    // 上联 ends on 仄, 下联 on 平. Rules on characters of unknown tone are skipped.
    double toneScore(const std::u32string& upper, const std::u32string& lower) const;
    // Share of keywords that occur as a run in either line, in [0, 1] (0 without keywords).
    static double keywordCoverage(const std::u32string& upper, const std::u32string& lower,
                                  const std::vector<std::u32string>& keywords);
    // Characters of `line` that repeat an earlier one, except a 叠字 (the
    // same character twice in a row) that `other` mirrors.
    static int repeatedCharacters(const std::u32string& line, const std::u32string& other);

private:
    ScoreParts partsOf(const Couplet& c, const std::vector<std::u32string>& keywords) const;

    const Vocab& m_vocab;
    const ToneTable& m_tones;
    const AlignTable* m_align;
    ScoreWeights m_weights;
};

// Distinct adjacent character pairs of both lines (the phrases compared across candidates).
std::vector<std::u32string> coupletBigrams(const std::u32string& upper, const std::u32string& lower);

} // namespace couplet
