#include "generation_options.h"

#include "writing_style.h"
#include "couplet_generator.h"
#include "embed_position.h"
#include "spring_festival.h"
#include "zodiac.h"

#include <sstream>

namespace couplet::cli {
namespace {

std::string trimmed(float x)
{
    std::ostringstream out;
    out << x;
    return out.str();
}

// A decoding weight given on the command line: 0 or more.
float weightOption(Args& args, const std::string& name, float fallback)
{
    if (!args.has(name)) return fallback;
    const double w = args.number(name, fallback);
    if (!(w >= 0)) throw UsageError("--" + name + " must be 0 (off) or more, not " + trimmed(static_cast<float>(w)));
    return static_cast<float>(w);
}

} // namespace

void DecodingWeights::applyTo(GenerationSpec& spec) const
{
    spec.alignWeight = align;
    spec.lengthBias = lengthBias;
    spec.keywordBonus = keywordBonus;
    spec.backwardWeight = backward;
    spec.judgeWeight = judge;
    spec.likelihoodWeight = likelihood;
    spec.bigramWeight = bigram;
    spec.wholeKeywords = !allowTornKeywords;
}

DecodingWeights takeDecodingWeights(Args& args, KeywordBonusFlag keywordBonus)
{
    DecodingWeights w;
    w.align = weightOption(args, "align-weight", w.align);
    w.lengthBias = weightOption(args, "length-bias", w.lengthBias);
    if (keywordBonus == KeywordBonusFlag::Taken) w.keywordBonus = weightOption(args, "keyword-bonus", w.keywordBonus);
    w.backward = weightOption(args, "backward-weight", w.backward);
    w.judge = weightOption(args, "judge-weight", w.judge);
    w.likelihood = weightOption(args, "likelihood-weight", w.likelihood);
    w.bigram = weightOption(args, "bigram-weight", w.bigram);
    w.allowTornKeywords = args.flag("allow-torn-keywords");
    return w;
}

int takeYear(Args& args)
{
    const std::string text = args.value("year", "");
    const int year = parseYearText(text, comingSpringFestivalYear());
    if (year < 0)
        throw UsageError("--year must be a year such as 2027 (1 to " + std::to_string(kMaxYear) + "), or none (0), not '"
                         + text + "'");
    return year;
}

std::string takeStyle(Args& args)
{
    const std::string style = args.value("style");
    if (!style.empty() && !parseStyle(style))
        throw UsageError("--style must be " + styleNames() + ", not \"" + style + "\"");
    return style;
}

void takeSamplingOptions(Args& args, SamplingSettings& s)
{
    s.temperature = static_cast<float>(args.number("temperature", s.temperature));
    s.topK = args.integer("top-k", s.topK);
    s.topP = static_cast<float>(args.number("top-p", s.topP));
    s.repetitionPenalty = static_cast<float>(args.number("repetition-penalty", s.repetitionPenalty));
}

int takeEmbedPosition(Args& args)
{
    if (!args.has("at")) return 1;
    const std::string text = args.value("at");
    const auto at = parseEmbedPosition(text);
    if (!at) throw UsageError("--at must be one of " + embedPositionList() + " (a number or a name), not '" + text + "'");
    return *at;
}

int takeBestOf(Args& args, int count)
{
    // 0: sampledCandidates()'s default (kRerankFactor per couplet, at least kRerankPool, when reranking).
    const int perCouplet = args.integer("candidates", 0);
    if (perCouplet < 0 || perCouplet * count > kMaxSampledCandidates)
        throw UsageError("--candidates x --count must be 1 to " + std::to_string(kMaxSampledCandidates)
                         + " candidates sampled in all");
    return perCouplet * count;
}

void takeDecodingOptions(Args& args, GenerationSpec& spec)
{
    spec.embedAt = takeEmbedPosition(args);
    if (args.has("script")) {
        const std::string script = args.value("script");
        const auto parsed = parseOutputScript(script);
        if (!parsed) throw UsageError("--script must be " + std::string(outputScriptChoices()) + ", not '" + script + "'");
        spec.script = *parsed;
    }
    spec.length = args.integer("length", 7);
    spec.candidates = args.integer("count", 1);
    if (spec.candidates < 1) throw UsageError("--count must be at least 1");
    spec.bestOf = takeBestOf(args, spec.candidates);
    const int seed = args.integer("seed", 0);
    if (seed < 0) throw UsageError("--seed must not be negative");
    spec.sampling.seed = static_cast<std::uint64_t>(seed);
    takeSamplingOptions(args, spec.sampling);
    spec.sampling.greedy = args.flag("greedy");
    spec.tonePattern = args.flag("tone");
    spec.freeHengpi = args.flag("free-hengpi");
    spec.keywordsMustAppear = args.flag("keywords-must-appear");
    spec.mixedZodiac = args.flag("mixed-zodiac");
    spec.year = takeYear(args);
    spec.style = takeStyle(args);
    spec.rerank = !args.flag("no-rerank");
    takeDecodingWeights(args).applyTo(spec);
}

nlohmann::json partsJson(const ScoreParts& p)
{
    return {{"log_prob", p.logProb}, {"duizhang", p.duizhang}, {"tone", p.tone},
            {"keywords", p.keywords}, {"repetition", p.repetition}, {"cliche", p.cliche},
            {"backward", p.backward}, {"loose_words", p.looseWords}, {"torn_keywords", p.tornKeywords},
            {"word_duizhang", p.wordDuizhang}, {"theme", p.theme}, {"melancholy", p.melancholy},
            {"judge", p.judge}};
}

std::string decodingOptionsHelp(const DecodingHelp& meaning, std::size_t width)
{
    const std::pair<const char*, std::string> lines[] = {
        {"--length N", meaning.length},
        {"--count N", meaning.count},
        {"--candidates K", "candidates sampled per couplet returned, the best kept (default when reranking: "
                               + std::to_string(kRerankFactor) + " per couplet, at least " + std::to_string(kRerankPool)
                               + " in all; " + std::to_string(kBulkRerankFactor) + " for a batch row; else 1)"},
        {"--seed N", meaning.seed},
        {"--at POS", "嵌名 position of the name: 1 鹤顶 (藏头, default), 2 燕颔, 3 鸢肩, 4 蜂腰, 5 鹤膝, 6 凫胫, last 雁足; "
                     "a number, a name (燕颔 or 燕颔格) or its pinyin (yanhan). It must fit the line: 鹤膝 and 凫胫 need 7 characters"},
        {"--tone", "上联 ends on 仄, 下联 on 平 (with 雁足格, a name against it is refused)"},
        {"--script S", "characters of the output: simplified (default), traditional (OpenCC s2t), taiwan (s2tw), "
                       "taiwan-phrases (s2twp: also Taiwan's modern words, 鼠标 -> 滑鼠, but 万象更新 -> 永珍更新) or "
                       "hongkong (s2hk); converted by phrase (头发 -> 頭髮, 发展 -> 發展), each line keeping its length "
                       "(else character by character)"},
        {"--free-hengpi", "any 横批 the model writes, not only one from its phrase list"},
        {"--keywords-must-appear", "every keyword appears in the 上联 (constrained decoding)"},
        {"--mixed-zodiac", "more than one year animal may appear (辞旧迎新); by default a couplet names one"},
        {"--year YYYY|none", "the year the couplet is for (2027 = 羊年; default: the coming Spring Festival's, "
                             + std::to_string(comingSpringFestivalYear()) + "): no other year animal is written unless the "
                             "prompt names one, and the 横批 names none but its; none (or 0): no year"},
        {"--style NAME", "festive, modern, verse or classical, for a model trained with styles (default festive)"},
        {"--no-rerank", "rank candidates by the model alone (and sample only those asked for, unless --candidates)"},
        {"--align-weight W", "对仗 fusion weight (default: the model's align.tsv; 0 = off)"},
        {"--bigram-weight W", "favour characters that real lines write after the previous one, against made-up words "
                              "(default: the model's bigrams.tsv; 0 = off)"},
        {"--allow-torn-keywords", "let a keyword stand torn across words (新居士: 新 / 居士), penalised by the rerank only; "
                                  "by default the character that would tear it is held back"},
        {"--length-bias B", "weight of the line-end bias for fixed lengths (0 = off)"},
        {"--keyword-bonus K", "logits favouring keywords the 上联 lacks (0 = off)"},
        {"--backward-weight W", "reranking: weight of the couplet read backwards, the 上联 as the answer to the 下联 (default 0 = off)"},
        {"--judge-weight W", "reranking: weight of the learned judge's log-odds (judge.bin; default: the model's; 0 = off)"},
        {"--likelihood-weight W", "reranking: weight of the model's mean log-probability per character against the rule terms (default 5)"},
        {"--temperature T", "sampling temperature (default " + trimmed(SamplingSettings{}.temperature) + ")"},
        {"--top-k K --top-p P", "sample among the K best (default " + std::to_string(SamplingSettings{}.topK) + "), within probability mass P (default " + trimmed(SamplingSettings{}.topP) + ")"},
        {"--repetition-penalty R", "damp characters the line already has, 1 to 3 (default " + trimmed(SamplingSettings{}.repetitionPenalty) + ")"},
        {"--greedy", "always the most likely character (no sampling)"},
    };
    std::string out;
    for (const auto& [flag, text] : lines) {
        std::string line = std::string("  ") + flag;
        line += line.size() + 1 < width ? std::string(width - line.size(), ' ') : std::string("\n") + std::string(width, ' ');
        out += line + text + "\n";
    }
    return out;
}

} // namespace couplet::cli
