#include "commands.h"
#include "eval_prompts.h"
#include "generation_options.h"
#include "model_options.h"

#include "couplet_check.h"
#include "couplet_model_generator.h"
#include "align_table.h"
#include "couplet_model.h"
#include "tone_table.h"
#include "vocab.h"
#include "couplet_scorer.h"
#include "decoder_nll.h"
#include "generate.h"
#include "styled_training.h"
#include "text_metrics.h"
#include "trainer.h"
#include "training_data.h"
#include "utf8.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <iostream>

namespace couplet::cli {
namespace {

struct EvalPair {
    std::string upper, lower;
    std::string source; // corpus of a validation pair ("modern", "verse-song" ...); empty for --pairs
    WritingStyle style = WritingStyle::Festive; // its label (a model with styles is asked for it)
};

std::vector<EvalPair> readPairsFile(const std::filesystem::path& path, std::size_t& skipped)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path.string() + ": cannot open");
    std::vector<EvalPair> out;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto tab = line.find('\t');
        if (tab == std::string::npos || utf8::firstInvalid(line) != std::string::npos) {
            std::cerr << path.string() << ":" << lineNo << ": skipped (expected UTF-8 \"上联<TAB>下联\")\n";
            ++skipped;
            continue;
        }
        out.push_back({line.substr(0, tab), line.substr(tab + 1), {}});
    }
    return out;
}

// The validation split, each pair labelled with its style as the model's own
// lexicon (styles.txt) labels it.
std::vector<EvalPair> validationPairs(const std::filesystem::path& dataDir, const std::filesystem::path& modelDir)
{
    std::vector<EvalPair> out;
    const auto data = loadLabelledData(dataDir, modelDir);
    for (const auto& s : data.sources())
        for (const auto& p : s.valid) out.push_back({utf8::encode(p.upper), utf8::encode(p.lower), s.name, p.style});
    return out;
}

struct Scores {
    std::size_t generated = 0, valid = 0, rejected = 0, violations = 0, forcedEnds = 0;
    double samePosition = 0, sharedChars = 0, tone = 0;
    double seconds = 0, nll = 0;
    double fusedNll = 0;  // of the reference 下联s with the 对仗 table added as decoding adds it
    float fusionWeight = 0; // 0: no table, or fusion off
    Bleu2 bleu;
    struct Group {
        std::size_t pairs = 0;
        double samePosition = 0;
        double nll = 0; // of the corpus's reference 下联s
    };
    std::map<std::string, Group> bySource; // same-place per corpus (validation split only)
};

// Characters of the generated 下联 equal to the reference at the same
// position, and the share of reference characters that appear anywhere.
void addOverlap(Scores& s, const std::string& got, const std::string& want, const std::string& source)
{
    const auto g = utf8::decode(got), w = utf8::decode(want);
    std::size_t same = 0, shared = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (i < g.size() && g[i] == w[i]) ++same;
        if (g.find(w[i]) != std::u32string::npos) ++shared;
    }
    s.samePosition += w.empty() ? 0 : double(same) / double(w.size());
    if (!source.empty()) {
        auto& g = s.bySource[source];
        ++g.pairs;
        g.samePosition += w.empty() ? 0 : double(same) / double(w.size());
    }
    s.sharedChars += w.empty() ? 0 : double(shared) / double(w.size());
    s.bleu.add(g, w);
}

// The reference 下联s of the pairs that were written, for their perplexity.
struct References {
    std::vector<TrainingExample> examples;
    std::vector<std::string> sources;      // corpus of each ("" for --pairs)
    std::vector<std::vector<int>> uppers;  // its 上联's tokens
    std::size_t withExample = 0;           // read after a theme example (a model with <ex>)
    std::size_t exampleHoldsReference = 0; // ... whose example has the reference 下联 as a line
};

struct PairRun {
    std::string style; // --style: every pair asks for it; empty = each pair its own label
    bool greedy = false, rerank = false;
    bool themeExample = true; // --no-example: a model with <ex> reads no theme example
    std::uint64_t seed = 1;
    DecodingWeights weights;
};

// Writes a 下联 for every 上联 on one scheduler, one CandidateGroup each
// (reranking sampledCandidates() of each when asked), and returns the best
// per pair; empty 上联 = rejected.
std::vector<Couplet> writeLowerLines(const CoupletModel& model, const std::vector<EvalPair>& pairs, const PairRun& run,
                                     Scores& s, References& references)
{
    auto decoder = model.makeDecoder();
    Scheduler scheduler(*decoder, SchedulerSettings{64, 0, 4096});
    const auto generator = CoupletModelGenerator::of(model);
    std::vector<Couplet> best(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        GenerationSpec spec;
        spec.mode = PromptMode::Upper;
        spec.upper = pairs[i].upper;
        const bool styled = model.vocab().hasStyles();
        spec.style = !run.style.empty() || !styled ? run.style : std::string(styleName(pairs[i].style));
        spec.rerank = run.rerank;
        spec.themeExample = run.themeExample;
        run.weights.applyTo(spec);
        spec.sampling.greedy = run.greedy;
        // Seeds of different pairs never overlap, whatever the number of candidates.
        spec.sampling.seed = run.seed + i * static_cast<std::uint64_t>(sampledCandidates(spec));
        if (const auto problem = model.validate(spec); !problem.empty()) {
            ++s.rejected;
            continue;
        }
        references.sources.push_back(pairs[i].source);
        // A model with <ex> reads the reference after the theme example its 上联 retrieves, as it writes.
        const auto example = model.themeExample(spec);
        std::optional<ExamplePair> ex;
        if (const auto tab = example.find('\t'); tab != std::string::npos)
            ex = ExamplePair{utf8::decode(example.substr(0, tab)), utf8::decode(example.substr(tab + 1))};
        references.examples.push_back(TrainingData::lowerLineExample(
            {utf8::decode(pairs[i].upper), utf8::decode(pairs[i].lower), 0,
             spec.style.empty() ? WritingStyle::Festive : *parseStyle(spec.style)},
            model.vocab(), ex ? &*ex : nullptr));
        references.withExample += ex.has_value();
        references.exampleHoldsReference += ex && copiesExample(U"", utf8::decode(pairs[i].lower), *ex);
        references.uppers.push_back(model.vocab().encode(pairs[i].upper));
        CandidateGroupOptions options;
        options.priority = Priority::Bulk;
        options.onDone = [&best, i](GroupResult result) {
            if (!result.couplets.empty()) best[i] = std::move(result.couplets.front());
        };
        CandidateGroup::create(generator, spec, std::move(options))->submitTo(scheduler);
    }
    runToCompletion(scheduler);
    return best;
}

void printScores(const Scores& s, std::size_t pairs, std::size_t skipped, const CoupletModel& model)
{
    const double n = std::max<double>(1, static_cast<double>(s.generated));
    std::cout << std::fixed << std::setprecision(3) << "pairs " << pairs << " (skipped lines " << skipped
              << ", rejected prompts " << s.rejected << ")\n"
              << "format valid           " << 100.0 * double(s.valid) / n << " %\n"
              << "constraint violations  " << s.violations << "\n"
              << "reference 下联 ppl     " << std::exp(s.nll) << "\n";
    if (s.fusionWeight > 0)
        std::cout << "  with the 对仗 table   " << std::exp(s.fusedNll) << "  (its rows added times " << s.fusionWeight
                  << " as decoding adds them; over the whole vocabulary)\n";
    std::cout
              << "same char, same place  " << 100.0 * s.samePosition / n << " %\n"
              << "reference chars used   " << 100.0 * s.sharedChars / n << " %\n";
    for (const auto& [name, g] : s.bySource)
        std::cout << "  same place, " << name << std::string(name.size() < 11 ? 11 - name.size() : 0, ' ')
                  << 100.0 * g.samePosition / std::max<double>(1, double(g.pairs)) << " %  (" << g.pairs
                  << " pairs, reference ppl " << std::exp(g.nll) << ")\n";
    std::cout
              << "character BLEU-2       " << 100.0 * s.bleu.score() << "\n"
              << "平仄 score             " << 100.0 * s.tone / n << " %\n"
              << "last character forced  " << 100.0 * double(s.forcedEnds) / n << " %\n"
              << "couplets/s             " << double(s.generated) / s.seconds << "  (" << model.deviceName() << ")\n";
}

void writeJson(const std::string& file, const Scores& s, std::size_t pairs, const CoupletModel& model)
{
    const double n = std::max<double>(1, static_cast<double>(s.generated));
    nlohmann::json bySource = nlohmann::json::object();
    for (const auto& [name, g] : s.bySource)
        bySource[name] = {{"pairs", g.pairs},
                          {"same_position", g.samePosition / std::max<double>(1, double(g.pairs))},
                          {"reference_perplexity", std::exp(g.nll)}};
    const nlohmann::json j = {{"pairs", pairs},
                              {"generated", s.generated},
                              {"rejected", s.rejected},
                              {"format_valid", double(s.valid) / n},
                              {"violations", s.violations},
                              {"reference_perplexity", std::exp(s.nll)},
                              {"reference_perplexity_with_table",
                               s.fusionWeight > 0 ? nlohmann::json(std::exp(s.fusedNll)) : nlohmann::json()},
                              {"align_weight", s.fusionWeight},
                              {"same_position", s.samePosition / n},
                              {"same_position_by_source", bySource},
                              {"shared_chars", s.sharedChars / n},
                              {"bleu2", s.bleu.score()},
                              {"tone_score", s.tone / n},
                              {"forced_line_ends", double(s.forcedEnds) / n},
                              {"couplets_per_s", double(s.generated) / s.seconds},
                              {"device", model.deviceName()}};
    std::ofstream(file) << j.dump(2) << '\n';
}

void printHelp()
{
    std::cout << "couplet eval --pairs FILE.tsv | --data DIR  [--limit N] [--show N] [--greedy] [--rerank] [--seed N] [--no-example]\n"
                 "             [--align-weight W] [--length-bias B] [--backward-weight W] [--judge-weight W] [--bigram-weight W] [--style NAME]\n"
                 "             [--json FILE]\n"
                 "  generates a 下联 (and 横批) for every 上联 and reports format validity, perplexity of the\n"
                 "  reference 下联 (by the model alone, and with the 对仗 table as decoding adds it), character\n"
                 "  overlap and BLEU-2 against it, the 平仄 score, the share of lines whose last character was\n"
                 "  forced where the model would have ended, and couplets per second.\n"
                 "  --data uses the fixed validation split of a training data folder, and gives same-place per corpus too.\n"
                 "  A model with styles is asked for each pair's own style (by its styles.txt), or for --style.\n"
                 "  A model with theme examples (<ex>) reads the one its examples.tsv gives each prompt, unless --no-example.\n"
                 "couplet eval --prompts FILE.tsv [--count N] [--candidates K] [--seeds N] [--keywords-must-appear] [--no-rerank] [--year YYYY]\n"
                 "             [--style NAME] [--no-example]\n"
                 "             [--align-weight W] [--length-bias B] [--keyword-bonus K] [--backward-weight W] [--judge-weight W] [--bigram-weight W] [--allow-torn-keywords]\n"
                 "             [--json FILE]\n"
                 "             [--temperature T] [--top-k K] [--top-p P] [--repetition-penalty R]\n"
                 "  writes every prompt of a judged set (group<TAB>mode<TAB>text<TAB>length lines) and reports\n"
                 "  keyword coverage, the 平仄 score and distinct-2 across the candidates of a prompt.\n"
                 "  --candidates K: candidates sampled per couplet returned, as for generate; --json writes each\n"
                 "  output's reranking terms (parts) too.\n"
                 "  The decoding weights are as in `couplet generate --help`: 0 (off) or more; absent, the model's default.\n"
              << modelOptionsHelp();
}

} // namespace

int runEval(Args& args)
{
    if (args.flag("help")) {
        printHelp();
        return 0;
    }
    if (args.has("prompts")) return runPromptEval(args);
    const std::string pairsFile = args.value("pairs"), dataDir = args.value("data"), jsonFile = args.value("json");
    const int limit = args.integer("limit", 0), show = args.integer("show", 5);
    PairRun run;
    run.greedy = args.flag("greedy");
    run.rerank = args.flag("rerank");
    run.seed = static_cast<std::uint64_t>(args.integer("seed", 1));
    run.style = takeStyle(args);
    run.themeExample = !args.flag("no-example");
    run.weights = takeDecodingWeights(args, KeywordBonusFlag::NotTaken);
    if (pairsFile.empty() == dataDir.empty()) throw UsageError("give either --pairs FILE.tsv or --data DIR");
    auto model = loadModel(args);
    args.finish();
    if (!run.style.empty() && !model->vocab().hasStyles())
        throw UsageError("--style " + run.style + ": this model has no styles (it was trained without style tokens)");

    std::size_t skipped = 0;
    auto pairs = pairsFile.empty() ? validationPairs(dataDir, model->dir()) : readPairsFile(pairsFile, skipped);
    if (limit > 0 && pairs.size() > static_cast<std::size_t>(limit)) pairs.resize(static_cast<std::size_t>(limit));

    Scores s;
    References references;
    const auto start = std::chrono::steady_clock::now();
    const auto results = writeLowerLines(*model, pairs, run, s, references);
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Through the decoder that wrote the lines, so the figure is of the precision in use.
    auto scoring = model->makeDecoder();
    s.nll = decoderTargetNll(*scoring, references.examples);
    if (const auto* table = model->align(); table != nullptr) {
        s.fusionWeight = run.weights.align >= 0 ? run.weights.align : static_cast<float>(table->defaultWeight());
        if (s.fusionWeight > 0)
            s.fusedNll = decoderTargetNll(*scoring, references.examples, 64,
                                          alignFusionBias(*table, s.fusionWeight, references.uppers));
    }
    std::map<std::string, std::vector<TrainingExample>> bySource;
    for (std::size_t i = 0; i < references.examples.size(); ++i)
        if (!references.sources[i].empty()) bySource[references.sources[i]].push_back(references.examples[i]);
    for (const auto& [name, examples] : bySource) s.bySource[name].nll = decoderTargetNll(*scoring, examples);

    const CoupletScorer scorer(model->vocab(), model->tones(), model->align());
    int shown = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (results[i].upper.empty()) continue;
        ++s.generated;
        const auto problems = coupletViolations(results[i]);
        s.violations += problems.size();
        if (problems.empty()) ++s.valid;
        addOverlap(s, results[i].lower, pairs[i].lower, pairs[i].source);
        s.tone += scorer.toneScore(utf8::decode(results[i].upper), utf8::decode(results[i].lower));
        s.forcedEnds += results[i].forcedLineEnds > 0;
        if (shown++ < show)
            std::cout << "上联 " << pairs[i].upper << "\n  参考 " << pairs[i].lower << "\n  生成 " << results[i].lower
                      << "   横批 " << results[i].hengpi << '\n';
    }
    if (model->vocab().hasExamples())
        std::cout << "theme examples         " << references.withExample << " of " << references.examples.size()
                  << " pairs read one before their 上联 (" << references.exampleHoldsReference
                  << " of them holding the reference 下联 as a line)\n";
    printScores(s, pairs.size(), skipped, *model);
    if (!jsonFile.empty()) writeJson(jsonFile, s, pairs.size(), *model);
    return s.valid == s.generated ? 0 : 1;
}

} // namespace couplet::cli
