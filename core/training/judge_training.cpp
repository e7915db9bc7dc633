#include "judge_training.h"

#include "candidate_group.h"
#include "couplet_model.h"
#include "couplet_model_generator.h"
#include "fnv1a.h"
#include "generate.h"
#include "line_shape.h"
#include "utf8.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <cmath>
#include <map>
#include <numeric>
#include <ostream>
#include <random>

namespace couplet {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kSampleChunk = 2048; // prompts queued at a time while sampling

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// A keyword drawn from a real couplet as a user would give one: a run of
// two characters most often (one, three or four otherwise), no marks.
std::u32string keywordOf(const std::u32string& line, std::mt19937_64& rng)
{
    std::discrete_distribution<int> lengths{0, 10, 70, 10, 10};
    const int n = static_cast<int>(line.size());
    const int len = std::min(n, lengths(rng));
    for (int attempt = 0; attempt < 6; ++attempt) {
        const int start = std::uniform_int_distribution<int>(0, n - len)(rng);
        auto k = line.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(len));
        if (std::none_of(k.begin(), k.end(), isCoupletPunctuation)) return k;
    }
    return {};
}

// The prompt a real pair answers: its 上联 given, or keywords drawn from it
// (one, or one from each line) at its length. Sampled as the model writes
// for itself: one candidate, not reranked.
GenerationSpec promptFor(const CouplePair& pair, bool givenUpper, std::uint64_t seed, std::mt19937_64& rng)
{
    GenerationSpec spec;
    spec.rerank = false;
    spec.candidates = 1;
    spec.sampling.seed = seed;
    if (givenUpper) {
        spec.mode = PromptMode::Upper;
        spec.upper = utf8::encode(pair.upper);
        return spec;
    }
    spec.mode = PromptMode::Keywords;
    spec.length = countCharacters(pair.upper);
    const bool upperFirst = std::bernoulli_distribution(0.7)(rng);
    spec.keywords = utf8::encode(keywordOf(upperFirst ? pair.upper : pair.lower, rng));
    if (std::bernoulli_distribution(0.3)(rng))
        spec.keywords += " " + utf8::encode(keywordOf(upperFirst ? pair.lower : pair.upper, rng));
    return spec;
}

// One real pair and the model's couplet for its prompt.
struct Sampled {
    CouplePair real;
    CouplePair generated;
    bool givenUpper = false;
};

// Samples a couplet for the prompt of every pair on one scheduler; pairs
// whose prompt the model refuses (characters it does not know) or whose
// sample is not two lines of equal length are left out.
std::vector<Sampled> sampleFor(const CoupletModel& model, const std::vector<CouplePair>& pairs,
                               const JudgeTrainOptions& o, std::uint64_t seed, std::ostream& log)
{
    auto decoder = model.makeDecoder();
    SchedulerSettings settings;
    settings.maxBatch = o.batch;
    settings.maxWaitMs = 0;
    Scheduler scheduler(*decoder, settings);
    const auto generator = CoupletModelGenerator::of(model);
    std::mt19937_64 rng(seed);
    std::vector<Sampled> out(pairs.size());
    std::vector<char> done(pairs.size(), 0);
    std::size_t finished = 0;
    const auto start = Clock::now();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const bool given = std::bernoulli_distribution(o.upperShare)(rng);
        const GenerationSpec spec = promptFor(pairs[i], given, seed * 1000003 + i + 1, rng);
        if (!model.validate(spec).empty()) continue;
        out[i].real = pairs[i];
        out[i].givenUpper = given;
        CandidateGroupOptions options;
        options.priority = Priority::Bulk;
        options.onDone = [&, i](GroupResult result) {
            if (++finished % 5000 == 0)
                log << "  sampled " << finished << " couplets (" << static_cast<int>(finished / secondsSince(start))
                    << "/s)" << std::endl;
            if (result.couplets.empty()) return;
            auto up = utf8::decode(result.couplets.front().upper), down = utf8::decode(result.couplets.front().lower);
            if (up.empty() || up.size() != down.size()) return;
            out[i].generated = {std::move(up), std::move(down), pairs[i].source, pairs[i].style};
            done[i] = 1;
        };
        CandidateGroup::create(generator, spec, std::move(options))->submitTo(scheduler);
        // In chunks, so that the policies of tens of thousands of prompts are not all alive at once.
        if ((i + 1) % kSampleChunk == 0) runToCompletion(scheduler);
    }
    runToCompletion(scheduler);
    std::vector<Sampled> kept;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (done[i]) kept.push_back(std::move(out[i]));
    return kept;
}

// The samples file: a header naming what it was sampled for, then
// "train|valid<TAB>given|keywords<TAB>real 上联<TAB>real 下联<TAB>sample 上联<TAB>sample 下联" lines.
std::string samplesHeader(const CoupletModel& model, const JudgeTrainOptions& o, std::size_t validPairs)
{
    return "# couplet judge samples: model " + std::to_string(judgeTablesFingerprint(model.dir())) + " "
        + std::filesystem::weakly_canonical(model.dir() / "model.safetensors").string() + ", pairs "
        + std::to_string(o.pairs) + ", validation pairs " + std::to_string(validPairs) + ", seed "
        + std::to_string(o.seed) + ", upper share " + std::to_string(o.upperShare);
}

void writeSamples(const std::filesystem::path& path, const std::string& header, const std::vector<Sampled>& train,
                  const std::vector<Sampled>& held)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << header << '\n';
    for (const auto* set : {&train, &held})
        for (const auto& s : *set)
            out << (set == &train ? "train" : "valid") << '\t' << (s.givenUpper ? "given" : "keywords") << '\t'
                << utf8::encode(s.real.upper) << '\t' << utf8::encode(s.real.lower) << '\t'
                << utf8::encode(s.generated.upper) << '\t' << utf8::encode(s.generated.lower) << '\n';
    if (!out.flush()) throw std::runtime_error(path.string() + ": cannot write");
}

bool readSamples(const std::filesystem::path& path, const std::string& header, std::vector<Sampled>& train,
                 std::vector<Sampled>& held)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::string line;
    if (!std::getline(in, line) || line != header)
        throw std::runtime_error(path.string() + ": sampled for other settings (" + line + "; these need: " + header
                                 + "): delete it or name another --samples file");
    int lineNo = 1;
    while (std::getline(in, line)) {
        ++lineNo;
        std::vector<std::string> f;
        for (std::size_t at = 0;;) {
            const auto tab = line.find('\t', at);
            f.push_back(line.substr(at, tab == std::string::npos ? tab : tab - at));
            if (tab == std::string::npos) break;
            at = tab + 1;
        }
        if (f.size() != 6 || (f[0] != "train" && f[0] != "valid"))
            throw std::runtime_error(path.string() + ":" + std::to_string(lineNo) + ": expected 6 tab-separated fields");
        Sampled s;
        s.givenUpper = f[1] == "given";
        s.real = {utf8::decode(f[2]), utf8::decode(f[3])};
        s.generated = {utf8::decode(f[4]), utf8::decode(f[5])};
        (f[0] == "train" ? train : held).push_back(std::move(s));
    }
    return true;
}

struct Example {
    JudgeFeatures features;
    float label = 0; // 1 = written by a person
};

// Logistic regression by AdaGrad, `epochs` passes in a fresh order each.
void fit(CoupletJudge& judge, const std::vector<Example>& examples, const JudgeTrainOptions& o, std::ostream& log)
{
    std::vector<float> sparseG(judge.sparse().size(), 0.0f);
    std::array<double, JudgeFeatures::kDense> denseG{};
    double biasG = 0;
    constexpr double kEps = 1e-8;
    std::vector<std::size_t> order(examples.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::mt19937_64 rng(o.seed);
    const double lr = o.learningRate, l2 = o.l2;
    for (int epoch = 1; epoch <= o.epochs; ++epoch) {
        std::shuffle(order.begin(), order.end(), rng);
        double loss = 0;
        std::size_t right = 0;
        for (std::size_t k : order) {
            const Example& e = examples[k];
            const double s = judge.score(e.features);
            loss += std::max(s, 0.0) - e.label * s + std::log1p(std::exp(-std::abs(s)));
            right += (s > 0) == (e.label > 0.5f);
            const double g = 1 / (1 + std::exp(-s)) - e.label;
            biasG += g * g;
            judge.bias() -= static_cast<float>(lr * g / std::sqrt(biasG + kEps));
            for (int d = 0; d < JudgeFeatures::kDense; ++d) {
                float& w = judge.dense()[d];
                const double gd = g * e.features.dense[d] + l2 * w;
                denseG[d] += gd * gd;
                w -= static_cast<float>(lr * gd / std::sqrt(denseG[d] + kEps));
            }
            for (std::uint32_t i : e.features.sparse) {
                float& w = judge.sparse()[i];
                const double gi = g + l2 * w;
                sparseG[i] += static_cast<float>(gi * gi);
                w -= static_cast<float>(lr * gi / std::sqrt(sparseG[i] + kEps));
            }
        }
        log << "  epoch " << epoch << ": log loss " << loss / double(examples.size()) << ", training accuracy "
            << 100.0 * double(right) / double(examples.size()) << " %" << std::endl;
    }
}

std::vector<CouplePair> validationPairs(const TrainingData& data, int limit, std::uint64_t seed)
{
    std::vector<CouplePair> out;
    for (const auto& s : data.sources()) out.insert(out.end(), s.valid.begin(), s.valid.end());
    if (limit > 0 && out.size() > static_cast<std::size_t>(limit)) {
        std::shuffle(out.begin(), out.end(), std::mt19937_64(seed));
        out.resize(static_cast<std::size_t>(limit));
    }
    return out;
}

} // namespace

double rocAuc(const std::vector<double>& positive, const std::vector<double>& negative)
{
    if (positive.empty() || negative.empty()) return 0.5;
    std::vector<std::pair<double, int>> all;
    for (double s : positive) all.emplace_back(s, 1);
    for (double s : negative) all.emplace_back(s, 0);
    std::sort(all.begin(), all.end());
    // Mann-Whitney U with mid-ranks for ties.
    double rankSum = 0;
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j].first == all[i].first) ++j;
        const double midRank = (double(i) + double(j - 1)) / 2 + 1;
        for (std::size_t k = i; k < j; ++k)
            if (all[k].second == 1) rankSum += midRank;
        i = j;
    }
    const double p = double(positive.size()), n = double(negative.size());
    return (rankSum - p * (p + 1) / 2) / (p * n);
}

std::vector<CouplePair> swappedLowerLines(const std::vector<CouplePair>& pairs, std::uint64_t seed)
{
    // Shape: the length and where the marks stand.
    std::map<std::u32string, std::vector<std::size_t>> byShape;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        std::u32string shape;
        for (char32_t c : pairs[i].lower) shape.push_back(isCoupletPunctuation(c) ? c : U'x');
        byShape[shape].push_back(i);
    }
    std::mt19937_64 rng(seed);
    std::vector<CouplePair> out;
    for (auto& [shape, members] : byShape) {
        if (members.size() < 2) continue;
        std::shuffle(members.begin(), members.end(), rng);
        // Each takes the next one's 下联 (a cycle: nobody keeps its own).
        for (std::size_t k = 0; k < members.size(); ++k) {
            const CouplePair& own = pairs[members[k]];
            const CouplePair& other = pairs[members[(k + 1) % members.size()]];
            if (other.lower == own.lower) continue;
            out.push_back({own.upper, other.lower, own.source, own.style});
        }
    }
    return out;
}

double swappedAuc(const CoupletJudge& judge, const JudgeTables& tables, const std::vector<CouplePair>& pairs,
                  std::uint64_t seed, std::size_t* swapped)
{
    std::vector<double> real, fake;
    for (const auto& p : pairs) real.push_back(judge.score(p.upper, p.lower, tables));
    for (const auto& p : swappedLowerLines(pairs, seed)) fake.push_back(judge.score(p.upper, p.lower, tables));
    if (swapped != nullptr) *swapped = fake.size();
    return rocAuc(real, fake);
}

JudgeReport trainJudge(const CoupletModel& model, const JudgeTrainOptions& o, CoupletJudge& judge, std::ostream& log)
{
    JudgeReport r;
    const auto data = TrainingData::load(o.dataDir);
    const JudgeTables tables = model.judgeTables();
    std::mt19937_64 rng(o.seed);
    std::vector<CouplePair> drawn;
    for (int i = 0; i < o.pairs; ++i) drawn.push_back(data.drawPair(rng));
    auto valid = validationPairs(data, o.validPairs, o.seed);

    auto start = Clock::now();
    if (o.samplesFile.empty() || !std::filesystem::exists(o.samplesFile))
        log << "sampling the model's couplets for " << drawn.size() << " training and " << valid.size()
        << " validation prompts (" << model.deviceName() << ")" << std::endl;
    std::vector<Sampled> train, held;
    const std::string header = samplesHeader(model, o, valid.size());
    if (o.samplesFile.empty() || !readSamples(o.samplesFile, header, train, held)) {
        train = sampleFor(model, drawn, o, o.seed, log);
        held = sampleFor(model, valid, o, o.seed + 7919, log);
        if (!o.samplesFile.empty()) writeSamples(o.samplesFile, header, train, held);
    } else {
        log << "read " << train.size() << " + " << held.size() << " samples from " << o.samplesFile.string() << std::endl;
    }
    r.sampleSeconds = secondsSince(start);

    start = Clock::now();
    judge = CoupletJudge(o.hashBits, judgeTablesFingerprint(model.dir()));
    std::vector<Example> examples;
    for (const auto& s : train) {
        examples.push_back({judge.features(s.real.upper, s.real.lower, tables), 1.0f});
        examples.push_back({judge.features(s.generated.upper, s.generated.lower, tables), 0.0f});
    }
    r.trainReal = train.size();
    r.trainNegative = train.size();
    if (o.swappedShare > 0) {
        // Pairs of their own, not the positives: a real line is then never
        // both a positive and (in a swapped pair) a negative.
        std::vector<CouplePair> others;
        const auto wanted = static_cast<std::size_t>(o.swappedShare * double(drawn.size()));
        while (others.size() < wanted) others.push_back(data.drawPair(rng));
        const auto swapped = swappedLowerLines(others, o.seed + 1);
        for (const auto& p : swapped) examples.push_back({judge.features(p.upper, p.lower, tables), 0.0f});
        r.trainNegative += swapped.size();
    }
    log << "fitting on " << r.trainReal << " real and " << r.trainNegative << " other couplets" << std::endl;
    fit(judge, examples, o, log);
    r.fitSeconds = secondsSince(start);

    std::vector<double> real, generated, realUpper, generatedUpper, realKeywords, generatedKeywords;
    std::size_t right = 0;
    for (const auto& s : held) {
        const double a = judge.score(s.real.upper, s.real.lower, tables);
        const double b = judge.score(s.generated.upper, s.generated.lower, tables);
        real.push_back(a);
        generated.push_back(b);
        (s.givenUpper ? realUpper : realKeywords).push_back(a);
        (s.givenUpper ? generatedUpper : generatedKeywords).push_back(b);
        right += (a > 0) + (b <= 0);
    }
    r.validReal = r.validGenerated = held.size();
    r.accuracy = held.empty() ? 0 : double(right) / double(2 * held.size());
    r.aucGenerated = rocAuc(real, generated);
    r.aucGivenUpper = rocAuc(realUpper, generatedUpper);
    r.aucKeywords = rocAuc(realKeywords, generatedKeywords);
    r.aucSwapped = swappedAuc(judge, tables, valid, o.seed, &r.swappedPairs);
    return r;
}

std::vector<LabelledCouplet> readVerdicts(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path.string() + ": cannot open");
    std::vector<LabelledCouplet> out;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const auto a = line.find('\t');
        const auto b = a == std::string::npos ? a : line.find('\t', a + 1);
        const auto c = b == std::string::npos ? b : line.find('\t', b + 1);
        const std::string label = line.substr(0, a);
        if (b == std::string::npos || (label != "0" && label != "1") || utf8::firstInvalid(line) != std::string::npos)
            throw std::runtime_error(path.string() + ":" + std::to_string(lineNo)
                                     + ": expected UTF-8 \"1 or 0<TAB>上联<TAB>下联\" (1 = printable)");
        LabelledCouplet v;
        v.printable = label == "1";
        v.upper = utf8::decode(line.substr(a + 1, b - a - 1));
        v.lower = utf8::decode(line.substr(b + 1, c == std::string::npos ? c : c - b - 1));
        if (v.upper.empty() || v.upper.size() != v.lower.size())
            throw std::runtime_error(path.string() + ":" + std::to_string(lineNo)
                                     + ": the 上联 and 下联 must be non-empty and of one length");
        out.push_back(std::move(v));
    }
    if (out.empty()) throw std::runtime_error(path.string() + ": no verdicts");
    return out;
}

VerdictReport trainJudgeOnVerdicts(const CoupletModel& model, const std::vector<LabelledCouplet>& verdicts,
                                   const JudgeTrainOptions& o, CoupletJudge& judge, std::ostream& log)
{
    VerdictReport r;
    const auto start = Clock::now();
    const JudgeTables tables = model.judgeTables();
    judge = CoupletJudge(o.hashBits, judgeTablesFingerprint(model.dir()));
    // The held-out tenth by the 上联's hash, so that one 上联 is never on both sides.
    auto heldOut = [](const std::u32string& upper) {
        return fnv1a(kFnv1aOffset, upper.data(), upper.size() * sizeof(char32_t)) % 10 == 0;
    };
    std::vector<Example> examples;
    std::vector<const LabelledCouplet*> held;
    for (const auto& v : verdicts) {
        if (heldOut(v.upper)) {
            held.push_back(&v);
            ++(v.printable ? r.heldPrintable : r.heldRejected);
            continue;
        }
        examples.push_back({judge.features(v.upper, v.lower, tables), v.printable ? 1.0f : 0.0f});
        ++(v.printable ? r.trainPrintable : r.trainRejected);
    }
    log << "fitting on " << r.trainPrintable << " printable and " << r.trainRejected << " rejected couplets" << std::endl;
    fit(judge, examples, o, log);
    std::vector<double> printable, rejected;
    for (const auto* v : held) (v->printable ? printable : rejected).push_back(judge.score(v->upper, v->lower, tables));
    r.heldAuc = rocAuc(printable, rejected);
    r.fitSeconds = secondsSince(start);
    return r;
}

} // namespace couplet
