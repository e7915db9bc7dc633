#pragma once

#include "output_script.h"

#include <cstdint>
#include <string>

namespace couplet {

enum class PromptMode { Keywords, Upper, Acrostic };

struct SamplingSettings {
    float temperature = 0.8f;
    int topK = 40;               // 0 = off
    float topP = 0.95f;          // 1 = off
    float repetitionPenalty = 1.1f;
    std::uint64_t seed = 0;      // 0 = pick one at random
    bool greedy = false;         // argmax, ignores the above
};

// Everything a user can ask of one couplet prompt.
struct GenerationSpec {
    PromptMode mode = PromptMode::Keywords;
    std::string keywords;        // e.g. "五福" or "龙年 生意" (space or comma separated)
    std::string upper;           // given 上联 (PromptMode::Upper)
    // 嵌名: a name, one character in each line, at embedAt (embed_position.h):
    // 1 = the first characters (藏头, 鹤顶格), 2-6, or kEmbedLast (-1, 雁足格),
    // counted in Han characters. Mode Acrostic. One character names the 上联's only.
    std::string acrostic;
    int embedAt = 1;
    int length = 7;              // Han characters per line, a mark not counted (line_shape.h); 0 = free
    std::string hengpi;          // fixed 横批 (four Han characters), empty = the model picks
    bool tonePattern = false;    // 上联 ends on 仄, 下联 on 平
    bool freeHengpi = false;     // 横批 generated freely instead of from the phrase list
    bool keywordsMustAppear = false; // every keyword in the 上联, by constrained decoding
    // A keyword is never written torn across words (新居 in 新居士, 家和 in 千家和睦),
    // by the model's words.tsv; false = the rerank's penalty only.
    bool wholeKeywords = true;
    bool mixedZodiac = false;    // more than one year animal may appear (辞旧迎新); by default one
    // The year the couplet is for (2027 = 羊年; 0 = none): its animal is the couplet's one year
    // animal when the prompt names none, so that no other (金猴, 龙年) is written, and the 横批's
    // whatever the lines name. Every door defaults it to comingSpringFestivalYear().
    int year = 0;
    // festive, modern, verse or classical (writing_style.h), for a model trained with style
    // tokens; empty = the model's default (festive where it has styles, none otherwise).
    std::string style;
    int candidates = 1;          // couplets returned
    int bestOf = 0;              // candidates sampled to choose them from; 0 = sampledCandidates()'s default
    // A model trained with theme examples (<ex>) reads a real couplet of the
    // prompt's theme (its examples.tsv) before the prompt; false = none.
    bool themeExample = true;
    bool rerank = true;          // rank by CoupletScorer (4x sampled by default), else by the model's score alone
    float alignWeight = -1.0f;   // 对仗 fusion weight; negative = the model's default (align.tsv), 0 = off
    float bigramWeight = -1.0f;  // favouring characters seen after the previous one (bigrams.tsv); negative = the model's default, 0 = off
    float lengthBias = -1.0f;    // weight of the line-end bias of fixed lengths; negative = default, 0 = off
    float keywordBonus = -1.0f;  // logits favouring missing keywords in the 上联; negative = default, 0 = off
    float backwardWeight = -1.0f; // reranking: weight of the couplet read backwards; negative = default, 0 = off
    float likelihoodWeight = -1.0f; // reranking: weight of the model's mean log-probability; negative = default
    float judgeWeight = -1.0f;   // reranking: weight of the learned judge (judge.bin); negative = default, 0 = off
    // The characters of the output: the model writes Simplified, converted
    // after the candidates are chosen (core/script).
    OutputScript script = OutputScript::Simplified;
    SamplingSettings sampling;
};

// Why a candidate ranks where it does: the terms of its score, each already
// weighted (penalties negative), so that total() is Couplet::score.
struct ScoreParts {
    double logProb = 0;    // the model's mean log-probability per token
    double duizhang = 0;   // 对仗: aligned character pairs, by the table
    double tone = 0;       // 平仄 pattern
    double keywords = 0;   // keyword coverage
    double repetition = 0; // characters repeated within a line other than 叠字
    double cliche = 0;     // phrases most of the other candidates share
    double backward = 0;   // read backwards: the model's mean log-probability of the 上联 as the answer to the 下联
    double looseWords = 0;   // characters that make no word (WordTerms::looseCharacters)
    double tornKeywords = 0; // keywords split across words
    double wordDuizhang = 0; // 对仗 word by word: same length, same part of speech
    double theme = 0;        // words of the prompt's theme (themes.tsv)
    double melancholy = 0;   // verse melancholy the prompt did not ask for (秋, 暮, 愁 ...)
    double judge = 0;        // the learned judge: log-odds written by a person, not sampled (judge.bin)
    double total() const
    {
        return logProb + duizhang + tone + keywords + repetition + cliche + backward + looseWords + tornKeywords
            + wordDuizhang + theme + melancholy + judge;
    }
};

struct Couplet {
    std::string upper;
    std::string lower;
    std::string hengpi;
    double score = 0;            // ranking score: parts.total() (mean log-probability when not reranked)
    std::uint64_t seed = 0;
    ScoreParts parts;
    int forcedLineEnds = 0;      // lines whose last character was forced where the model would have ended the line
    double backwardLogProb = 0;  // unweighted: the 上联's mean log-probability given the 下联 (0 = not scored)
    std::string example;         // the theme example read before the prompt ("上联 下联"; empty = none)
};

} // namespace couplet
