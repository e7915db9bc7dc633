#pragma once

#include "writing_style.h"
#include "hengpi_list.h"
#include "target_sequence.h"
#include "example_index.h"
#include "vocab.h"

#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace couplet {

struct CouplePair {
    std::u32string upper;
    std::u32string lower;
    int source = 0;
    // By source (verse-*, classical; modern and any other file: modern) until
    // labelStyles() finds the festive ones among the modern.
    WritingStyle style = WritingStyle::Modern;
};

class StyleLexicon;

// One corpus file of ../shared/data/couplets and how often it is drawn.
struct CorpusSource {
    std::string name;            // file stem, e.g. "modern"
    double weight = 1.0;         // share of training samples
    bool withHengpi = false;     // attach synthetic 横批 (modern spring couplets)
    std::vector<CouplePair> train;
    std::vector<CouplePair> valid;
};

// The couplet corpora, split into training and validation sets with a fixed
// seed, mixed by weight, and encoded in the sequence format of vocab.h with
// random prompts (keywords drawn from the couplet itself, acrostic, length).
class TrainingData {
public:
    // Reads dataDir/couplets/*.tsv and dataDir/idioms. Lines that are not a
    // pair of equal-length lines of Han characters and couplet punctuation
    // are skipped (counted in skipped()).
    static TrainingData load(const std::filesystem::path& dataDir, double validFraction = 0.01,
                             std::size_t maxValidPerSource = 1000);

    // Marks the modern pairs that `lexicon` finds festive (WritingStyle::Festive);
    // returns how many. Which pairs are validation does not change.
    std::size_t labelStyles(const StyleLexicon& lexicon);

    // Characters seen at least minCount times (and every 横批 character).
    Vocab buildVocab(int minCount) const;
    // Drops pairs with characters outside `vocab`; restricts the 横批 list.
    void restrictTo(const Vocab& vocab);

    const std::vector<CorpusSource>& sources() const { return m_sources; }
    const HengpiList& hengpi() const { return m_hengpi; }
    std::size_t skipped() const { return m_skipped; }

    // A random training pair, drawn by source weight.
    const CouplePair& drawPair(std::mt19937_64& rng) const;
    // Encodes a pair with randomly chosen prompt parts (and its style token
    // after <bos> when `vocab` has style tokens).
    TrainingExample makeExample(const CouplePair& pair, const Vocab& vocab, std::mt19937_64& rng) const;
    // The fixed prompt <bos> [<style>] <lenN> <up> 上联 <down> followed by 下联 <hp>;
    // only the 下联 characters are targets (perplexity of the reference 下联).
    // With `example`: that couplet before the prompt (addExample).
    static TrainingExample lowerLineExample(const CouplePair& pair, const Vocab& vocab,
                                            const ExamplePair* example = nullptr, int maxLen = 96);
    // Puts `example` before the prompt of `ex` (<bos> [<style>] <ex> 上联 <sep> 下联 ...),
    // as context, not as targets. False (nothing done) when the vocabulary has
    // no <ex> or the sequence would exceed maxLen tokens.
    static bool addExample(TrainingExample& ex, const ExamplePair& example, const Vocab& vocab, int maxLen);

private:
    std::vector<CorpusSource> m_sources;
    std::vector<double> m_cumulative;
    HengpiList m_hengpi;
    std::size_t m_skipped = 0;
};

} // namespace couplet
