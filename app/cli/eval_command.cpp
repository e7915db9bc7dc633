#include "commands.h"
#include "model_options.h"

#include "couplet_check.h"
#include "couplet_model_impl.h"
#include "generate.h"
#include "trainer.h"
#include "training_data.h"
#include "utf8.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>

namespace couplet::cli {
namespace {

struct EvalPair {
    std::string upper, lower;
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
        out.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
    return out;
}

std::vector<EvalPair> validationPairs(const std::filesystem::path& dataDir)
{
    std::vector<EvalPair> out;
    const auto data = TrainingData::load(dataDir);
    for (const auto& s : data.sources())
        for (const auto& p : s.valid) out.push_back({utf8::encode(p.upper), utf8::encode(p.lower)});
    return out;
}

struct Scores {
    std::size_t generated = 0, valid = 0, rejected = 0, violations = 0;
    double samePosition = 0, sharedChars = 0;
    double seconds = 0, nll = 0;
};

// Characters of the generated 下联 equal to the reference at the same
// position, and the share of reference characters that appear anywhere.
void addOverlap(Scores& s, const std::string& got, const std::string& want)
{
    const auto g = utf8::decode(got), w = utf8::decode(want);
    std::size_t same = 0, shared = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (i < g.size() && g[i] == w[i]) ++same;
        if (g.find(w[i]) != std::u32string::npos) ++shared;
    }
    s.samePosition += w.empty() ? 0 : double(same) / double(w.size());
    s.sharedChars += w.empty() ? 0 : double(shared) / double(w.size());
}

} // namespace

int runEval(Args& args)
{
    if (args.flag("help")) {
        std::cout << "couplet eval --pairs FILE.tsv | --data DIR  [--limit N] [--show N] [--greedy] [--seed N] [--json FILE]\n"
                     "  generates a 下联 (and 横批) for every 上联 and reports format validity, perplexity of the\n"
                     "  reference 下联, character overlap with it, constraint violations and couplets per second.\n"
                     "  --data uses the fixed validation split of a training data folder.\n"
                  << modelOptionsHelp();
        return 0;
    }
    const std::string pairsFile = args.value("pairs"), dataDir = args.value("data"), jsonFile = args.value("json");
    const int limit = args.integer("limit", 0), show = args.integer("show", 5);
    const bool greedy = args.flag("greedy");
    const auto seed = static_cast<std::uint64_t>(args.integer("seed", 1));
    if (pairsFile.empty() == dataDir.empty()) throw UsageError("give either --pairs FILE.tsv or --data DIR");
    auto model = loadModel(args);
    args.finish();

    std::size_t skipped = 0;
    auto pairs = pairsFile.empty() ? validationPairs(dataDir) : readPairsFile(pairsFile, skipped);
    if (limit > 0 && pairs.size() > static_cast<std::size_t>(limit)) pairs.resize(static_cast<std::size_t>(limit));

    Scores s;
    std::vector<TrainingExample> references;
    auto decoder = model->makeDecoder();
    Scheduler scheduler(*decoder, SchedulerSettings{64, 0, 4096});
    std::vector<Couplet> results(pairs.size());
    std::vector<char> done(pairs.size(), 0);
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        GenerationSpec spec;
        spec.mode = PromptMode::Upper;
        spec.upper = pairs[i].upper;
        spec.sampling.greedy = greedy;
        spec.sampling.seed = seed + i;
        if (const auto problem = model->validate(spec); !problem.empty()) {
            ++s.rejected;
            continue;
        }
        const auto& vocab = model->impl().vocab;
        references.push_back(TrainingData::lowerLineExample(
            {utf8::decode(pairs[i].upper), utf8::decode(pairs[i].lower), 0}, vocab));
        SequenceRequest r;
        r.priority = Priority::Bulk;
        r.policy = model->makePolicy(spec);
        r.onFinish = [&, i](const SequenceResult& result) {
            if (result.status == RequestStatus::Done) {
                results[i] = CoupletModel::coupletOf(*result.policy);
                done[i] = 1;
            }
        };
        scheduler.submit(std::move(r));
    }
    runToCompletion(scheduler);
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Lm lm = model->impl().lm; // a handle sharing the loaded weights
    s.nll = meanTargetNll(*lm, references);

    int shown = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (!done[i]) continue;
        ++s.generated;
        const auto problems = coupletViolations(results[i]);
        s.violations += problems.size();
        if (problems.empty()) ++s.valid;
        addOverlap(s, results[i].lower, pairs[i].lower);
        if (shown++ < show)
            std::cout << "上联 " << pairs[i].upper << "\n  参考 " << pairs[i].lower << "\n  生成 " << results[i].lower
                      << "   横批 " << results[i].hengpi << '\n';
    }
    const double n = std::max<double>(1, static_cast<double>(s.generated));
    std::cout << std::fixed << std::setprecision(3) << "pairs " << pairs.size() << " (skipped lines " << skipped
              << ", rejected prompts " << s.rejected << ")\n"
              << "format valid           " << 100.0 * double(s.valid) / n << " %\n"
              << "constraint violations  " << s.violations << "\n"
              << "reference 下联 ppl     " << std::exp(s.nll) << "\n"
              << "same char, same place  " << 100.0 * s.samePosition / n << " %\n"
              << "reference chars used   " << 100.0 * s.sharedChars / n << " %\n"
              << "couplets/s             " << double(s.generated) / s.seconds << "  (" << model->deviceName() << ")\n";
    if (!jsonFile.empty()) {
        const nlohmann::json j = {{"pairs", pairs.size()},           {"generated", s.generated},
                                  {"rejected", s.rejected},          {"format_valid", double(s.valid) / n},
                                  {"violations", s.violations},      {"reference_perplexity", std::exp(s.nll)},
                                  {"same_position", s.samePosition / n}, {"shared_chars", s.sharedChars / n},
                                  {"couplets_per_s", double(s.generated) / s.seconds}, {"device", model->deviceName()}};
        std::ofstream(jsonFile) << j.dump(2) << '\n';
    }
    return s.valid == s.generated ? 0 : 1;
}

} // namespace couplet::cli
