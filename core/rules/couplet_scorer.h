#pragma once

#include "generation_spec.h"

#include <string>
#include <vector>

namespace couplet {

class AlignTable;
class CoupletJudge;
class ThemeLexicon;
class ToneTable;
class Vocab;
class WordTable;

// How much each term of the reranking score counts (see ScoreParts).
struct ScoreWeights {
    double likelihood = 1.0; // per unit of the model's mean log-probability per token (CoupletModel::rerank sets it)
    double duizhang = 0.1;   // per unit of mean 对仗 pair score (about 0 to 8)
    double tone = 0.6;       // for a 平仄 pattern that keeps every rule
    double lineEnds = 2.0;   // per line that ends against 上仄下平 (in the tone part; see endsAgainstTheRule)
    double keywords = 3.0;   // for every keyword present: a missing one outweighs the word and theme terms together
    double repetition = 0.3; // per character repeated within a line other than 叠字
    double cliche = 0.6;     // for a candidate all of whose phrases every other one shares
    double backward = 0;     // per unit of Couplet::backwardLogProb (CoupletModel::rerank sets it)
    // The word and theme terms: the coefficients of a logistic fit of
    // printable / not on the 480 judged outputs of sessions 17-18 (log-odds
    // per unit; MODEL_CARD.md, "Decoding"). Those outputs carry no model
    // log-probability, so the scale against logProb is not fitted.
    double looseCharacter = 0.12; // per character that makes no word
    double tornKeyword = 0.4;     // per keyword split across words
    double wordDuizhang = 0.8;    // for a 上联 whose every word the 下联 matches
    double theme = 0.3;           // per word of the prompt's theme, at most kMaxThemeWords
    double melancholy = 1.0;      // per character of verse melancholy
    // Per unit of the judge's log-odds (CoupletJudge::score); CoupletModel::rerank
    // sets it where the model folder has a judge.bin.
    double judge = 0;
};

// What the word and theme terms need besides the candidates; without a word
// table or a theme lexicon (a model folder without words.tsv, themes.tsv)
// those terms are 0.
struct PromptLexicons {
    const WordTable* words = nullptr;
    const ThemeLexicon* themes = nullptr;
    std::vector<std::string> themeNames; // ThemeLexicon::themesOf the prompt
    std::u32string prompt;               // what the user wrote: keywords, 藏头, a given 上联
    bool givenUpper = false;             // the 上联 is the user's: only the 下联 is the model's
    const CoupletJudge* judge = nullptr; // the learned judge (judge.bin); null = its term is 0
};

// Scores finished candidates of one prompt and ranks them: the model's mean
// log-probability plus 对仗 (the align table), 平仄, keyword coverage, and
// penalties for repeated characters and for phrases the other candidates share.
class CoupletScorer {
public:
    // align may be null (no table: the 对仗 term is 0).
    CoupletScorer(const Vocab& vocab, const ToneTable& tones, const AlignTable* align, ScoreWeights weights = {},
                  PromptLexicons lexicons = {});

    // Fills parts and score of every candidate (parts.logProb must be set, and
    // backwardLogProb where the backward weight is not 0) and sorts them best
    // first: a candidate that holds more of the keywords ranks above one that
    // holds fewer whatever their scores (the rubric rejects a couplet that
    // leaves out a keyword asked for), then by score.
    void rerank(std::vector<Couplet>& candidates, const std::vector<std::u32string>& keywords) const;
    // Keeps the best n of ranked candidates, passing over exact repeats of a
    // better one while enough others remain; the order stays best first.
    static void keepBest(std::vector<Couplet>& ranked, std::size_t n);

    // Share of the 平仄 rules kept, in [0, 1]: tones alternate at positions
    // 2, 4, 6 ... within a line and are opposite between the lines there;
    // 上联 ends on 仄, 下联 on 平. Rules on characters of unknown tone are skipped.
    double toneScore(const std::u32string& upper, const std::u32string& lower) const;
    // Lines that end against the rule that the 上联 ends on 仄 and the 下联 on
    // 平 (0 to 2; characters of unknown tone pass). Under a given 上联 that ends
    // on 平, the 下联 answers it and is not counted.
    int endsAgainstTheRule(const std::u32string& upper, const std::u32string& lower, bool givenUpper) const;
    // Share of keywords that occur as a run in either line, in [0, 1] (0 without keywords).
    static double keywordCoverage(const std::u32string& upper, const std::u32string& lower,
                                  const std::vector<std::u32string>& keywords);
    // Characters of `line` that repeat an earlier one, except a 叠字 (the
    // same character twice in a row) that `other` mirrors.
    static int repeatedCharacters(const std::u32string& line, const std::u32string& other);

private:
    ScoreParts partsOf(const Couplet& c, const std::vector<std::u32string>& keywords) const;
    void addLexiconParts(ScoreParts& p, const std::u32string& up, const std::u32string& down,
                         const std::vector<std::u32string>& keywords) const;

    const Vocab& m_vocab;
    const ToneTable& m_tones;
    const AlignTable* m_align;
    ScoreWeights m_weights;
    PromptLexicons m_lexicons;
};

inline constexpr int kMaxThemeWords = 3;

// Distinct adjacent character pairs of both lines (the phrases compared across candidates).
std::vector<std::u32string> coupletBigrams(const std::u32string& upper, const std::u32string& lower);

} // namespace couplet
