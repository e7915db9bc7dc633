// `couplet eval --data DIR` reports same-place and reference perplexity per
// corpus of the validation split, and the corpora's figures, weighted by their
// pairs, make the overall ones. Runs the real CLI on a tiny random-weight
// model and a synthetic data folder of two corpora.

#include "cli_under_test.h"
#include "tiny_model.h"

#include "align_table.h"
#include "utf8.h"

#include <check.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <utility>

using namespace couplet;

namespace {

// Runs the couplet CLI under test (CTest sets COUPLET_CLI) with `arguments`,
// its output into `log`; returns the exit status and the output.
std::pair<int, std::string> runCli(const std::string& arguments, const std::filesystem::path& log)
{
    const std::string command = testing::cliUnderTest() + " " + arguments + " > " + log.string() + " 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(log);
    return {status, std::string((std::istreambuf_iterator<char>(in)), {})};
}

} // namespace

COUPLET_TEST(evalReportsSamePlacePerCorpusThatAddsUpToTheWhole)
{
    const auto root = testing::freshTempDir("eval-by-source");
    const auto model = testing::writeTinyModel(root / "model", 3);
    std::filesystem::create_directories(root / "data" / "couplets");
    // 1% of each corpus is held out: 3 and 5 validation pairs.
    testing::writeTinyCorpus(root / "data" / "couplets" / "modern.tsv", 300, 1);
    testing::writeTinyCorpus(root / "data" / "couplets" / "verse-song.tsv", 500, 2);
    const auto json = root / "eval.json";
    const auto [status, logText] = runCli("eval --model " + model.string() + " --data " + (root / "data").string() +
                                              " --greedy --threads 1 --json " + json.string(),
                                          root / "eval.log");
    CHECK_EQ(status, 0);
    CHECK(logText.find("same place, modern") != std::string::npos);
    CHECK(logText.find("same place, verse-song") != std::string::npos);

    std::ifstream in(json);
    const auto j = nlohmann::json::parse(in);
    const auto& bySource = j.at("same_position_by_source");
    CHECK_EQ(bySource.size(), std::size_t(2));
    CHECK_EQ(bySource.at("modern").at("pairs").get<int>(), 3);
    CHECK_EQ(bySource.at("verse-song").at("pairs").get<int>(), 5);
    const double modern = bySource.at("modern").at("same_position").get<double>();
    const double song = bySource.at("verse-song").at("same_position").get<double>();
    CHECK(modern >= 0 && modern <= 1 && song >= 0 && song <= 1);
    CHECK_EQ(j.at("generated").get<int>(), 8);
    CHECK(std::abs((3 * modern + 5 * song) / 8 - j.at("same_position").get<double>()) < 1e-9);
    // Every reference 下联 has as many targets (five characters and the end), so the
    // overall mean log-likelihood is the pairs' weighted mean of the corpora's.
    const double pplModern = bySource.at("modern").at("reference_perplexity").get<double>();
    const double pplSong = bySource.at("verse-song").at("reference_perplexity").get<double>();
    CHECK(pplModern > 1 && pplSong > 1);
    CHECK(std::abs((3 * std::log(pplModern) + 5 * std::log(pplSong)) / 8 -
                   std::log(j.at("reference_perplexity").get<double>())) < 1e-6);
}

// A negative decoding weight means "the default" inside the spec; typed on the
// command line it is refused with a message naming the option, by generate and
// by both kinds of eval.
COUPLET_TEST(aNegativeDecodingWeightIsRefusedByName)
{
    const auto root = testing::freshTempDir("negative-weight");
    const auto model = testing::writeTinyModel(root / "model", 3);
    testing::writeTinyCorpus(root / "pairs.tsv", 4, 3);
    {
        std::ofstream prompts(root / "prompts.tsv");
        prompts << "keywords\tkeywords\t春\t5\n";
    }
    const auto run = [&](const std::string& arguments) { return runCli(arguments, root / "run.log"); };
    const std::string modelFlag = " --model " + model.string() + " --threads 1";
    const std::string commands[] = {
        "generate" + modelFlag + " --keywords 春",
        "eval" + modelFlag + " --pairs " + (root / "pairs.tsv").string(),
        "eval" + modelFlag + " --prompts " + (root / "prompts.tsv").string(),
    };
    for (const std::string& command : commands) {
        for (const std::string option : {"--backward-weight", "--align-weight", "--length-bias"}) {
            const auto [status, text] = run(command + " " + option + " -2");
            CHECK(status != 0);
            CHECK(text.find(option + " must be 0 (off) or more") != std::string::npos);
        }
        // The same command with a weight of 0 (off) runs.
        const auto [status, text] = run(command + " --align-weight 0");
        CHECK_EQ(status, 0);
    }
    // Writing 下联 for given 上联 has no keywords: eval --pairs takes no --keyword-bonus.
    const auto [status, text] = run(commands[1] + " --keyword-bonus 1");
    CHECK(status != 0);
    CHECK(text.find("unknown option --keyword-bonus") != std::string::npos);
}

// With a 对仗 table beside the model, eval also gives the reference 下联's
// perplexity with the table added, at the table's own weight or the one asked
// for; with fusion off it gives none.
COUPLET_TEST(evalReportsTheReferencePerplexityWithTheTableAtTheWeightInUse)
{
    const auto root = testing::freshTempDir("eval-with-table");
    const auto model = testing::writeTinyModel(root / "model", 3);
    testing::writeTinyCorpus(root / "pairs.tsv", 12, 5);
    // The table holds the references' own aligned pairs, so it makes them likelier.
    AlignTable table;
    {
        std::ifstream in(root / "pairs.tsv");
        std::string line;
        while (std::getline(in, line)) {
            const auto tab = line.find('\t');
            table.addPair(utf8::decode(line.substr(0, tab)), utf8::decode(line.substr(tab + 1)), 5);
        }
    }
    AlignTable::BuildOptions options;
    options.alpha = 1;
    options.weight = 2;
    table.prune(options);
    table.save(model / "align.tsv");

    const auto json = root / "eval.json";
    const auto eval = [&](const std::string& extra) {
        const auto result = runCli("eval --model " + model.string() + " --pairs " + (root / "pairs.tsv").string()
                                       + " --greedy --threads 1 --json " + json.string() + extra,
                                   root / "eval.log");
        CHECK_EQ(result.first, 0);
        std::ifstream in(json);
        return std::make_pair(nlohmann::json::parse(in), result.second);
    };
    const auto [byDefault, text] = eval("");
    CHECK_EQ(byDefault.at("align_weight").get<double>(), 2.0);
    CHECK(text.find("with the 对仗 table") != std::string::npos);
    const double alone = byDefault.at("reference_perplexity").get<double>();
    CHECK(byDefault.at("reference_perplexity_with_table").get<double>() < alone);

    const auto [asked, askedText] = eval(" --align-weight 0.5");
    CHECK_EQ(asked.at("align_weight").get<double>(), 0.5);
    CHECK_EQ(asked.at("reference_perplexity").get<double>(), alone);
    CHECK(asked.at("reference_perplexity_with_table").get<double>() < alone);
    CHECK(asked.at("reference_perplexity_with_table").get<double>()
          != byDefault.at("reference_perplexity_with_table").get<double>());

    const auto [off, offText] = eval(" --align-weight 0");
    CHECK(off.at("reference_perplexity_with_table").is_null());
    CHECK(offText.find("with the 对仗 table") == std::string::npos);
}

// eval --prompts takes the sampling settings generate takes: with top-k 1
// every seed writes the prompt's one most likely couplet; hot and unclipped,
// the seeds differ. A bad setting is refused by name.
COUPLET_TEST(evalPromptsTakesTheSamplingSettings)
{
    const auto root = testing::freshTempDir("eval-prompts-sampling");
    const auto model = testing::writeTinyModel(root / "model", 3);
    {
        std::ofstream prompts(root / "prompts.tsv");
        prompts << "keywords\tkeywords\t春\t5\n";
    }
    const std::string base = "eval --model " + model.string() + " --threads 1 --prompts " +
                             (root / "prompts.tsv").string() + " --seeds 6 --json " + (root / "out.json").string();
    const auto distinctOutputs = [&](const std::string& options) {
        const auto [status, text] = runCli(base + " " + options, root / "run.log");
        CHECK_EQ(status, 0);
        std::ifstream in(root / "out.json");
        const auto j = nlohmann::json::parse(in);
        CHECK_EQ(j.size(), std::size_t{6});
        std::set<std::string> texts;
        for (const auto& c : j) texts.insert(c["upper"].get<std::string>() + "/" + c["lower"].get<std::string>());
        return texts.size();
    };
    CHECK_EQ(distinctOutputs("--top-k 1"), std::size_t{1});
    CHECK(distinctOutputs("--temperature 2 --top-k 0 --top-p 1 --repetition-penalty 1") > 1);
    const auto [status, text] = runCli(base + " --temperature -1", root / "run.log");
    CHECK(status != 0);
    CHECK(text.find("temperature must be in (0, 5]") != std::string::npos);
}

// A prompt the model cannot write (a character outside its vocabulary) stops
// eval --prompts before any prompt is written, naming the file and line, so a
// long run does not fail at its end.
COUPLET_TEST(evalPromptsRefusesABadLineBeforeWriting)
{
    const auto root = testing::freshTempDir("eval-prompts-bad-line");
    const auto model = testing::writeTinyModel(root / "model", 3);
    {
        std::ofstream prompts(root / "prompts.tsv");
        prompts << "# a comment\nkeywords\tkeywords\t春\t5\nupper\tupper\t龘龘龘龘龘\t0\n";
    }
    const auto [status, text] = runCli("eval --model " + model.string() + " --threads 1 --prompts " +
                                           (root / "prompts.tsv").string() + " --json " + (root / "out.json").string(),
                                       root / "run.log");
    CHECK(status != 0);
    CHECK(text.find("prompts.tsv: line 3: upper:") != std::string::npos);
    CHECK(text.find("does not know: 龘") != std::string::npos);
    CHECK(!std::filesystem::exists(root / "out.json"));
    CHECK(text.find("keywords\t春") == std::string::npos); // the good line before it was not written either
}
