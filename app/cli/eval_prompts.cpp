#include "eval_prompts.h"
#include "generation_options.h"
#include "model_options.h"

#include "couplet_check.h"
#include "couplet_judge.h"
#include "word_table.h"
#include "word_terms.h"
#include "align_table.h"
#include "couplet_model.h"
#include "tone_table.h"
#include "vocab.h"
#include "couplet_scorer.h"
#include "generate.h"
#include "keyword_plan.h"
#include "text_metrics.h"
#include "utf8.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>

namespace couplet::cli {
namespace {

struct JudgedPrompt {
    std::string group;
    std::string where; // "FILE: line N", for messages
    GenerationSpec spec;
};

PromptMode parseMode(const std::string& mode, const std::string& where)
{
    if (mode == "keywords") return PromptMode::Keywords;
    if (mode == "upper") return PromptMode::Upper;
    if (mode == "acrostic") return PromptMode::Acrostic;
    throw std::runtime_error(where + ": mode must be keywords, upper or acrostic, found \"" + mode + "\"");
}

// "group<TAB>mode<TAB>text<TAB>length" lines; '#' starts a comment line.
std::vector<JudgedPrompt> readPrompts(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path.string() + ": cannot open");
    std::vector<JudgedPrompt> out;
    std::string line;
    for (int lineNo = 1; std::getline(in, line); ++lineNo) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const std::string where = path.string() + ": line " + std::to_string(lineNo);
        std::vector<std::string> f;
        for (std::size_t start = 0;;) {
            const auto tab = line.find('\t', start);
            f.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) break;
            start = tab + 1;
        }
        if (f.size() != 4) throw std::runtime_error(where + ": expected group<TAB>mode<TAB>text<TAB>length");
        JudgedPrompt p;
        p.group = f[0];
        p.where = where;
        p.spec.mode = parseMode(f[1], where);
        (p.spec.mode == PromptMode::Keywords ? p.spec.keywords
         : p.spec.mode == PromptMode::Upper  ? p.spec.upper
                                             : p.spec.acrostic) = f[2];
        p.spec.length = std::stoi(f[3]);
        out.push_back(std::move(p));
    }
    return out;
}

struct PromptScores {
    std::size_t outputs = 0, valid = 0, keywordOutputs = 0, covered = 0, torn = 0, forcedEnds = 0, prompts = 0;
    double tone = 0, distinct = 0, seconds = 0;
};

void printSummary(const PromptScores& s, std::size_t requests)
{
    const double n = std::max<double>(1, double(s.outputs));
    std::cout << std::fixed << std::setprecision(3) << "prompts " << s.prompts << ", requests " << requests
              << ", outputs " << s.outputs << "\n"
              << "format valid           " << 100.0 * double(s.valid) / n << " %\n"
              << "keyword coverage       " << 100.0 * double(s.covered) / std::max<double>(1, double(s.keywordOutputs))
              << " %  (every keyword present; " << s.keywordOutputs << " outputs with keywords)\n"
              << "keywords torn          " << s.torn << "  (outputs with a keyword torn across words, by the model's words.tsv)\n"
              << "平仄 score             " << 100.0 * s.tone / n << " %\n"
              << "last character forced  " << 100.0 * double(s.forcedEnds) / n << " %\n"
              << "distinct-2             " << 100.0 * s.distinct / std::max<double>(1, double(s.prompts)) << " %\n"
              << "ms per request         " << 1000.0 * s.seconds / std::max<double>(1, double(requests)) << "\n";
}

nlohmann::json outputJson(const JudgedPrompt& p, const Couplet& c)
{
    return {{"group", p.group}, {"prompt", p.spec.keywords + p.spec.upper + p.spec.acrostic},
            {"length", p.spec.length}, {"upper", c.upper}, {"lower", c.lower}, {"hengpi", c.hengpi},
            {"score", c.score}, {"parts", partsJson(c.parts)}, {"seed", c.seed}, {"example", c.example}};
}

struct PromptRun {
    int count = 1, seeds = 1;
    int bestOf = 0; // --candidates x --count (0 = sampledCandidates()'s default)
    std::uint64_t seed = 1;
    bool mustAppear = false, rerank = true;
    bool themeExample = true; // --no-example
    int year = 0; // --year: the year animal of prompts that name none
    std::string style; // --style; empty = the model's default
    DecodingWeights weights;
    SamplingSettings sampling; // --temperature, --top-k, --top-p, --repetition-penalty (the seed is per run)
};

void applyRun(GenerationSpec& spec, const PromptRun& run)
{
    spec.candidates = run.count;
    spec.bestOf = run.bestOf;
    spec.keywordsMustAppear = run.mustAppear && spec.mode != PromptMode::Upper && !spec.keywords.empty();
    spec.rerank = run.rerank;
    spec.themeExample = run.themeExample;
    spec.year = run.year;
    spec.style = run.style;
    spec.sampling = run.sampling;
    run.weights.applyTo(spec);
}

// Writes one prompt with every seed; adds to the scores and the JSON outputs.
void evalPrompt(const CoupletModel& model, Decoder& decoder, JudgedPrompt& p, const PromptRun& run, PromptScores& s,
                nlohmann::json& outputs)
{
    const CoupletScorer scorer(model.vocab(), model.tones(), model.align());
    const auto keywords = p.spec.mode == PromptMode::Upper ? std::vector<std::u32string>{} : splitKeywords(p.spec.keywords);
    const std::string prompt = p.spec.keywords + p.spec.upper + p.spec.acrostic;
    std::vector<std::u32string> lines;
    for (int k = 0; k < run.seeds; ++k) {
        p.spec.sampling.seed = run.seed + static_cast<std::uint64_t>(k) * kMaxSampledCandidates;
        const auto start = std::chrono::steady_clock::now();
        const auto couplets = generateCouplets(model, decoder, p.spec);
        s.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (const auto& c : couplets) {
            const auto up = utf8::decode(c.upper), down = utf8::decode(c.lower);
            ++s.outputs;
            s.valid += coupletViolations(c).empty();
            s.tone += scorer.toneScore(up, down);
            s.forcedEnds += c.forcedLineEnds > 0;
            if (!keywords.empty()) {
                ++s.keywordOutputs;
                s.covered += CoupletScorer::keywordCoverage(up, down, keywords) == 1.0;
                if (const WordTable* words = model.judgeTables().words; words && !words->empty())
                    s.torn += std::any_of(keywords.begin(), keywords.end(), [&](const std::u32string& k) {
                        return k.size() >= 2 && (tearsKeyword(*words, up, k) || tearsKeyword(*words, down, k));
                    });
            }
            lines.push_back(up);
            lines.push_back(down);
            outputs.push_back(outputJson(p, c));
            std::cout << p.group << '\t' << prompt << '\t' << c.upper << " / " << c.lower << " / " << c.hengpi << '\n';
        }
    }
    ++s.prompts;
    s.distinct += distinct2(lines);
}

} // namespace

int runPromptEval(Args& args)
{
    const std::filesystem::path file = args.value("prompts");
    const std::string jsonFile = args.value("json");
    PromptRun run;
    run.count = args.integer("count", 1);
    run.seeds = args.integer("seeds", 1);
    run.bestOf = takeBestOf(args, run.count);
    run.seed = static_cast<std::uint64_t>(args.integer("seed", 1));
    run.mustAppear = args.flag("keywords-must-appear");
    run.rerank = !args.flag("no-rerank");
    run.themeExample = !args.flag("no-example");
    run.year = takeYear(args);
    run.style = takeStyle(args);
    run.weights = takeDecodingWeights(args);
    takeSamplingOptions(args, run.sampling);
    auto model = loadModel(args);
    args.finish();
    if (run.count < 1 || run.seeds < 1) throw UsageError("--count and --seeds must be at least 1");
    auto prompts = readPrompts(file);
    auto decoder = model->makeDecoder();
    PromptScores s;
    nlohmann::json outputs = nlohmann::json::array();
    // Every prompt is checked before any is written, so that a bad line stops the run at once, by line.
    for (auto& p : prompts) {
        applyRun(p.spec, run);
        if (auto e = model->validate(p.spec); !e.empty()) throw UsageError(p.where + ": " + p.group + ": " + e);
    }
    for (auto& p : prompts) evalPrompt(*model, *decoder, p, run, s, outputs);
    printSummary(s, prompts.size() * static_cast<std::size_t>(run.seeds));
    if (!jsonFile.empty()) std::ofstream(jsonFile) << outputs.dump(2) << '\n';
    return s.valid == s.outputs ? 0 : 1;
}

} // namespace couplet::cli
