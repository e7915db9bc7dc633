// Theme examples (example_index.h): the <ex> prefix, the retrieval, the
// trainer's --examples, and a policy that never hands its example back.

#include "tiny_model.h"

#include "couplet_model.h"
#include "couplet_policy.h"
#include "example_index.h"
#include "safetensors.h"
#include "styled_training.h"
#include "token_policy.h"
#include "trainer.h"
#include "training_data.h"

#include <check.h>

#include <fstream>
#include <set>
#include <sstream>

using namespace couplet;

namespace {

// A theme lexicon over the tiny characters: "spring" by 春 words, "wedding" by 喜.
std::filesystem::path writeThemes(const std::filesystem::path& file)
{
    std::ofstream(file) << "spring\t春风\t0\nspring\t新春\t0\nwedding\t喜庆\t0\nwedding\t和合\t0\n";
    return file;
}

std::u32string chars(std::size_t from, std::size_t n)
{
    return testing::tinyHanCharacters().substr(from, n);
}

} // namespace

// <ex> reads back from vocab.txt after the style tokens, and an example put
// before a prompt reads back from the tokens, as context only: the
// sequence after it and its targets are those without it.
COUPLET_TEST(anExamplePrefixRoundTripsAndTrainsNothing)
{
    const auto root = testing::freshTempDir("examples-prefix");
    const auto vocab = Vocab(std::vector<char32_t>{U'春', U'福', U'门', U'喜', U'财', U'来'}).withStyleTokens().withExampleToken();
    vocab.save(root / "vocab.txt");
    const auto back = Vocab::load(root / "vocab.txt");
    CHECK_EQ(back.size(), vocab.size());
    CHECK_EQ(back.exampleToken(), vocab.size() - 1);
    CHECK_EQ(back.piece(back.exampleToken()), std::string("<ex>"));
    CHECK(!back.isCharacter(back.exampleToken()));
    CHECK_EQ(back.styleToken(WritingStyle::Classical), vocab.styleToken(WritingStyle::Classical));
    CHECK(!Vocab(std::vector<char32_t>{U'春'}).hasExamples());
    std::ofstream(root / "vocab.txt", std::ios::app) << "<ex>\n";
    CHECK_THROWS(Vocab::load(root / "vocab.txt"), "a second <ex>");

    const CouplePair pair{U"春福", U"喜财", 0, WritingStyle::Festive};
    const ExamplePair example{U"福门来", U"喜春财"};
    const auto plain = TrainingData::lowerLineExample(pair, vocab);
    auto with = plain;
    CHECK(TrainingData::addExample(with, example, vocab, 96));
    CHECK_EQ(with.tokens.at(0), tok::kBos);
    CHECK_EQ(with.tokens.at(1), vocab.styleToken(WritingStyle::Festive));
    CHECK_EQ(with.tokens.at(2), vocab.exampleToken());
    const auto read = exampleIn(with.tokens, vocab);
    CHECK(read.has_value());
    CHECK(read->upper == example.upper && read->lower == example.lower);
    const std::size_t n = examplePrefix(vocab, example).size();
    CHECK_EQ(n, std::size_t(2 + 3 + 3));
    std::vector<int> rest(with.tokens.begin(), with.tokens.begin() + 2);
    rest.insert(rest.end(), with.tokens.begin() + 2 + static_cast<std::ptrdiff_t>(n), with.tokens.end());
    CHECK(rest == plain.tokens);
    for (std::size_t i = 0; i < 2 + n; ++i) CHECK_EQ(int(with.target[i]), 0);
    CHECK(std::vector<char>(with.target.begin() + 2 + static_cast<std::ptrdiff_t>(n), with.target.end())
          == std::vector<char>(plain.target.begin() + 2, plain.target.end()));
    CHECK(!exampleIn(plain.tokens, vocab).has_value());

    auto full = plain;
    CHECK(!TrainingData::addExample(full, example, vocab, static_cast<int>(plain.tokens.size() + n - 1)));
    CHECK(full.tokens == plain.tokens);
    auto none = plain;
    CHECK(!TrainingData::addExample(none, example, Vocab(std::vector<char32_t>{U'春'}), 96));
}

// The index the trainer and `couplet train --example-index` build holds
// training pairs only; retrieval never returns the couplet asked about nor
// one sharing a line with it, and a theme finds its couplets.
COUPLET_TEST(retrievalNeverReturnsAValidationPairOrThePromptsOwnCouplet)
{
    const auto root = testing::freshTempDir("examples-retrieval");
    const auto data = TrainingData::load(testing::writeTinyDataFolder(root / "data", 300));
    const auto lexicon = ThemeLexicon::load(writeThemes(root / "themes.tsv"));
    const auto& modern = data.sources().at(0);
    CHECK(!modern.valid.empty());
    std::set<std::u32string> validLines;
    for (const auto& p : modern.valid) validLines.insert({p.upper, p.lower});
    std::set<std::u32string> trainLines;
    for (const auto& p : modern.train) trainLines.insert({p.upper, p.lower});

    const auto shipped = buildExampleIndex(data, lexicon, 1000, 7);
    CHECK_EQ(shipped.size(), modern.train.size());
    for (std::size_t i = 0; i < shipped.size(); ++i) {
        CHECK(!validLines.count(shipped.pair(i).upper) || trainLines.count(shipped.pair(i).upper));
        bool isValidation = false;
        for (const auto& v : modern.valid)
            isValidation |= v.upper == shipped.pair(i).upper && v.lower == shipped.pair(i).lower;
        CHECK(!isValidation);
    }
    CHECK(buildExampleIndex(data, lexicon, 3, 7).size() < shipped.size());

    std::vector<ExamplePair> pairs;
    for (const auto& p : modern.train) pairs.push_back({p.upper, p.lower});
    const ExampleIndex index(pairs, lexicon);
    std::mt19937_64 rng(3);
    std::size_t found = 0;
    for (const auto& p : modern.train) {
        for (int k = 0; k < 3; ++k) {
            const auto i = index.related(p.upper, p.lower, rng);
            if (!i) continue;
            ++found;
            const auto& ex = index.pair(*i);
            CHECK(!copiesExample(p.upper, p.lower, ex));
        }
        const auto best = index.best(p.upper, ThemeLexicon::themesOf(p.upper, -1), 1);
        if (best) CHECK(index.pair(*best).upper != p.upper && index.pair(*best).lower != p.upper);
    }
    CHECK(found > modern.train.size()); // most couplets of a random corpus share a bigram

    // A theme's couplet is found by the theme alone.
    const ExampleIndex themed({{U"春风福门", U"喜庆财来"}, {U"山水天地", U"花月人家"}}, lexicon);
    CHECK(themed.themesOfPair(0).size() == 2);
    CHECK(themed.themesOfPair(1).empty());
    const auto wedding = themed.best(U"新婚", {"wedding"}, 1);
    CHECK(wedding.has_value() && *wedding == 0);
    CHECK(!themed.best(U"龙", {"business"}, 1).has_value());
    CHECK(!themed.best(U"春风福门", {"spring"}, 1).has_value()); // its own couplet
}

// --examples on weights without <ex>: the token is appended (every other id
// stays, its row the mean row), the lexicon kept as themes.tsv, and most
// examples read a related couplet first.
COUPLET_TEST(anExampleContinuationAppendsTheExampleToken)
{
    const auto root = testing::freshTempDir("examples-train");
    const auto data = testing::writeTinyDataFolder(root / "data", 300);
    const auto fresh = testing::writeTinyModel(root / "fresh", 3);
    TrainOptions o = testing::tinyContinuation(data, fresh, root / "ex", 2);
    o.batchSize = 8;
    o.learningRate = 0;
    o.minLearningRate = 0;
    o.exampleThemes = writeThemes(root / "themes.tsv");
    std::ostringstream log;
    train(o, log);
    CHECK(log.str().find("with examples ") != std::string::npos);
    CHECK(log.str().find("with examples 0 ") == std::string::npos);
    const auto before = Vocab::load(fresh / "vocab.txt"), after = Vocab::load(o.outDir / "vocab.txt");
    CHECK(!before.hasExamples());
    CHECK_EQ(after.exampleToken(), before.size());
    for (int id = 0; id < before.size(); ++id) CHECK_EQ(after.piece(id), before.piece(id));
    CHECK(std::filesystem::exists(o.outDir / "themes.tsv"));
    const auto wte = safetensors::load(o.outDir / "model.safetensors").at("wte.weight").to(torch::kFloat32);
    const auto old = safetensors::load(fresh / "model.safetensors").at("wte.weight").to(torch::kFloat32);
    CHECK(torch::allclose(wte.slice(0, 0, before.size()), old));
    CHECK(torch::allclose(wte[before.size()], old.mean(0), 1e-4, 1e-5));
}

// A model without <ex> writes the prompt it always wrote, even with an
// examples.tsv beside it; one with <ex> puts its example after <bos> (unless
// asked not to), and a policy never finishes a line equal to an example line
// even when the model wants nothing else.
COUPLET_TEST(aModelWithTheExampleTokenNeverHandsItsExampleBack)
{
    const auto root = testing::freshTempDir("examples-policy");
    const auto plainDir = testing::writeTinyModel(root / "plain", 4);
    const ExamplePair example{chars(0, 5), chars(5, 5)}; // 春福年新喜 / 风花月山水
    {
        std::ofstream out(plainDir / kExampleIndexFile);
        out << utf8::encode(example.upper) << '\t' << utf8::encode(example.lower) << '\n';
    }
    std::filesystem::copy_file(writeThemes(root / "themes.tsv"), plainDir / "themes.tsv");
    GenerationSpec spec;
    spec.keywords = utf8::encode(chars(0, 2));
    spec.length = 5;
    spec.sampling.greedy = true;
    const auto plain = CoupletModel::load(plainDir);
    const auto plainPrompt = plain->makePolicy(spec)->promptTokens();
    CHECK_EQ(plainPrompt.at(1), tok::kKeywords);
    CHECK(plain->themeExample(spec).empty());

    // The same weights with <ex> appended (a mean row), and the same files.
    const auto exDir = root / "ex";
    std::filesystem::create_directories(exDir);
    for (const auto& e : std::filesystem::directory_iterator(plainDir))
        std::filesystem::copy_file(e.path(), exDir / e.path().filename());
    const auto vocab = Vocab::load(plainDir / "vocab.txt").withExampleToken();
    vocab.save(exDir / "vocab.txt");
    auto config = ModelConfig::load(plainDir / "config.json");
    config.vocabSize = vocab.size();
    config.save(exDir / "config.json");
    auto tensors = safetensors::load(plainDir / "model.safetensors");
    widenEmbedding(tensors, vocab.size());
    safetensors::save(exDir / "model.safetensors", tensors);

    const auto model = CoupletModel::load(exDir);
    const auto prompt = model->makePolicy(spec)->promptTokens();
    CHECK_EQ(prompt.at(1), vocab.exampleToken());
    const auto read = exampleIn(prompt, vocab);
    CHECK(read.has_value() && read->upper == example.upper && read->lower == example.lower);
    CHECK_EQ(model->themeExample(spec), utf8::encode(example.upper) + "\t" + utf8::encode(example.lower));
    std::vector<int> after(prompt.begin() + 1 + static_cast<std::ptrdiff_t>(examplePrefix(vocab, example).size()),
                           prompt.end());
    after.insert(after.begin(), tok::kBos);
    CHECK(after == plainPrompt); // the rest of the prompt is the old model's
    auto off = spec;
    off.themeExample = false;
    CHECK(model->makePolicy(off)->promptTokens() == plainPrompt);

    // Logits that want nothing but the example, line by line.
    auto policy = model->makePolicy(spec);
    const auto upper = vocab.encode(utf8::encode(example.upper)), lower = vocab.encode(utf8::encode(example.lower));
    std::vector<int> written;
    while (!policy->finished()) {
        std::vector<float> logits(static_cast<std::size_t>(vocab.size()), 0.0f);
        const auto& g = policy->generated();
        const auto down = std::find(g.begin(), g.end(), tok::kLower);
        if (down == g.end()) {
            const std::size_t at = g.size();
            logits[static_cast<std::size_t>(at < upper.size() ? upper[at] : tok::kLower)] = 50.0f;
        } else {
            const auto at = static_cast<std::size_t>(g.end() - down - 1);
            if (at < lower.size()) logits[static_cast<std::size_t>(lower[at])] = 50.0f;
            else logits[tok::kHengpi] = 50.0f;
        }
        policy->choose(logits);
    }
    const auto c = CoupletModel::coupletOf(*policy);
    CHECK(c.upper != utf8::encode(example.upper));
    CHECK(c.lower != utf8::encode(example.lower));
    CHECK(!copiesExample(utf8::decode(c.upper), utf8::decode(c.lower), example));
    // It kept all it could: only the last character of the 上联 moved.
    CHECK(utf8::decode(c.upper).substr(0, 4) == example.upper.substr(0, 4));
    CHECK(copiesExample(example.upper, U"", example));
    CHECK(copiesExample(U"", example.upper, example));
    CHECK(!copiesExample(U"", U"", example));
}
