#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

namespace couplet {

class Vocab;

// 对仗 statistics: how often 下联 character b stands at the same position as
// 上联 character a, counted over the training split. Shipped beside the model
// as align.tsv and used twice: shallow fusion (while a 下联 is written, the
// row of 上联[i] is added, times a weight, to the logits at position i) and
// the 对仗 score of a finished couplet for reranking.
//
// The score of a pair is the Dirichlet-smoothed PMI shifted so that an unseen
// pair scores 0: with P(b|a) = (c(a,b) + alpha p(b)) / (n(a) + alpha),
//   log P(b|a) / p(b) - log P(unseen|a) / p(unseen) = log(1 + c(a,b) / (alpha p(b))).
// The shift is the same for every b of a row, so adding the sparse row to the
// logits is exactly adding the smoothed PMI: softmax ignores a constant.
class AlignTable {
public:
    struct Entry {
        int token = 0;
        float score = 0; // >= 0
    };
    struct BuildOptions {
        int topK = 48;        // entries kept per 上联 character
        int minCount = 2;     // pairs seen fewer times are noise
        double alpha = 200;   // smoothing pseudo-count (larger: rare rows count less)
        double weight = 0.5;  // default fusion weight written into the file
        bool logCount = false; // score log c(a,b) (log P(b|a) against one count) instead of the PMI
        bool byMix = false;    // count each corpus by its share of the training mix, not its size
    };

    // Counting: one call per training pair (lines of equal length), counted
    // `times` times (a pair's weight in the training mix).
    void addPair(const std::u32string& upper, const std::u32string& lower, std::uint32_t times = 1);
    // Prunes the counts to the options' top-K rows (call once, before save()).
    void prune(const BuildOptions& options);

    // align.tsv: a header line "@ positions=N lines=L alpha=A weight=W", then
    // one line per character: "a<TAB>n(a) as 上联<TAB>n(a) as 下联<TAB>n(a) as
    // the last character of a line<TAB>b:count b:count ..." (its 下联 partners).
    static AlignTable load(const std::filesystem::path& path);
    void save(const std::filesystem::path& path) const;

    // Turns the counts into token rows of `vocab` (characters it lacks are dropped).
    void bind(const Vocab& vocab);
    // The scored row of a 上联 token, by token id; empty for unknown or unbound tokens.
    const std::vector<Entry>& row(int upperToken) const;
    // Score of one aligned pair (0 when the table does not hold it).
    float score(int upperToken, int lowerToken) const;
    // Mean pair score over the positions where both lines hold Han characters
    // that differ (tokens of `vocab` as bound).
    double coupletScore(const std::vector<int>& upper, const std::vector<int>& lower) const;
    // How much more often a token ends a line than it stands anywhere:
    // log P(token | last position) / P(token), smoothed; 0 when unknown.
    float closing(int token) const;

    double defaultWeight() const { return m_weight; }
    std::size_t rows() const { return m_counts.size(); }
    std::int64_t positions() const { return m_positions; }

private:
    struct Cell {
        char32_t lower;
        std::uint32_t count;
    };
    struct Row {
        std::int64_t asUpper = 0, asLower = 0, atEnd = 0;
        std::vector<Cell> cells; // unsorted while counting
    };
    Row& rowOf(char32_t c);
    double pairScore(const Cell& cell) const;

    std::unordered_map<char32_t, Row> m_counts;
    std::unordered_map<std::uint64_t, std::uint32_t> m_pairIndex; // while counting: (a << 32 | b) -> cell index
    std::int64_t m_positions = 0, m_lines = 0;
    double m_alpha = 200;
    double m_weight = 0.5;
    bool m_logCount = false;
    bool m_byMix = false; // provenance only: the counts were weighted by the training mix
    std::vector<std::vector<Entry>> m_rows; // [vocab] after bind(), sorted by token
    std::vector<float> m_closing;           // [vocab] after bind()
};

} // namespace couplet
