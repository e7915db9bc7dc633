#include "trainer.h"

#include "hengpi_list.h"
#include "preference_data.h"
#include "safetensors.h"
#include "example_index.h"
#include "styled_training.h"
#include "theme_lexicon.h"
#include "tone_table.h"
#include "training_data.h"
#include "couplet_model_impl.h"
#include "transformer.h"

#include <ATen/autocast_mode.h>
#include <nlohmann/json.hpp>
#include <torch/torch.h>
#include <torch/version.h>

#include <algorithm>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <chrono>
#include <cmath>
#include <deque>
#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>
#include <thread>

namespace couplet {
namespace {

constexpr int kIgnore = -100;
constexpr int kBatchesPerBucket = 8; // examples are sorted by length within 8 batches

using Seconds = std::chrono::duration<double>;

struct Batch {
    torch::Tensor tokens;  // [batch, time] int64
    torch::Tensor targets; // [batch, time] int64, kIgnore where not trained
    int64_t realTokens = 0;
};

Batch collate(const std::vector<TrainingExample>& examples, std::size_t begin, std::size_t end, int maxLen)
{
    std::size_t time = 0;
    for (std::size_t i = begin; i < end; ++i) time = std::max(time, examples[i].tokens.size());
    time = std::min<std::size_t>(time, maxLen);
    const auto n = static_cast<int64_t>(end - begin);
    Batch b;
    b.tokens = torch::zeros({n, static_cast<int64_t>(time)}, torch::kLong);
    b.targets = torch::full({n, static_cast<int64_t>(time)}, kIgnore, torch::kLong);
    auto tok = b.tokens.accessor<int64_t, 2>();
    auto tgt = b.targets.accessor<int64_t, 2>();
    for (int64_t r = 0; r < n; ++r) {
        const auto& ex = examples[begin + r];
        const std::size_t len = std::min(ex.tokens.size(), time);
        for (std::size_t i = 0; i < len; ++i) {
            tok[r][i] = ex.tokens[i];
            if (i + 1 < len && ex.target[i]) tgt[r][i] = ex.tokens[i + 1];
        }
        b.realTokens += static_cast<int64_t>(len);
    }
    return b;
}

// Draws kBatchesPerBucket batches at once and sorts them by length, which
// cuts padding without making a batch's lengths predictable.
class BatchStream {
public:
    BatchStream(const TrainingData& data, const Vocab& vocab, int batchSize, int maxLen, std::uint64_t seed)
        : m_data(data), m_vocab(vocab), m_batchSize(batchSize), m_maxLen(maxLen), m_rng(seed), m_exampleRng(seed ^ 0x5eed0e8a3b1cULL)
    {
    }
    // Theme examples: a share `rate` of the examples read a related couplet
    // of their source's training split (indices by source). Drawn from a
    // generator of their own, so that the couplets trained on and their
    // prompts are those of the same run without examples.
    void useExamples(const std::vector<ExampleIndex>* indices, double rate)
    {
        m_indices = indices;
        m_exampleRate = rate;
    }
    std::size_t examplesAdded() const { return m_examplesAdded; }
    Batch next()
    {
        if (m_ready.empty()) refill();
        Batch b = std::move(m_ready.front());
        m_ready.pop_front();
        return b;
    }

private:
    void refill()
    {
        std::vector<TrainingExample> examples;
        for (int i = 0; i < m_batchSize * kBatchesPerBucket; ++i) {
            const auto& pair = m_data.drawPair(m_rng);
            examples.push_back(m_data.makeExample(pair, m_vocab, m_rng));
            if (m_indices == nullptr || std::uniform_real_distribution<double>(0, 1)(m_exampleRng) >= m_exampleRate)
                continue;
            const auto& index = (*m_indices)[static_cast<std::size_t>(pair.source)];
            if (const auto found = index.related(pair.upper, pair.lower, m_exampleRng))
                m_examplesAdded += TrainingData::addExample(examples.back(), index.pair(*found), m_vocab, m_maxLen);
        }
        std::sort(examples.begin(), examples.end(),
                  [](const auto& a, const auto& b) { return a.tokens.size() < b.tokens.size(); });
        for (int k = 0; k < kBatchesPerBucket; ++k)
            m_ready.push_back(collate(examples, k * m_batchSize, (k + 1) * m_batchSize, m_maxLen));
        std::shuffle(m_ready.begin(), m_ready.end(), m_rng);
    }
    const TrainingData& m_data;
    const Vocab& m_vocab;
    int m_batchSize;
    int m_maxLen;
    std::mt19937_64 m_rng;
    std::mt19937_64 m_exampleRng;
    const std::vector<ExampleIndex>* m_indices = nullptr;
    double m_exampleRate = 0;
    std::size_t m_examplesAdded = 0;
    std::deque<Batch> m_ready;
};

double learningRateAt(const TrainOptions& o, int step)
{
    if (step < o.warmupSteps) return o.learningRate * (step + 1) / o.warmupSteps;
    const double progress = std::min(1.0, double(step - o.warmupSteps) / std::max(1, o.steps - o.warmupSteps));
    return o.minLearningRate + 0.5 * (o.learningRate - o.minLearningRate) * (1 + std::cos(M_PI * progress));
}

safetensors::TensorMap weightsOf(Lm& model)
{
    safetensors::TensorMap map;
    for (const auto& p : model->named_parameters()) map[p.key()] = p.value();
    return map;
}

// Mean NLL over the targets of `examples`, in batches, without dropout.
double meanLoss(LmImpl& model, const std::vector<TrainingExample>& examples, const torch::Device& device)
{
    torch::NoGradGuard guard;
    const bool wasTraining = model.is_training();
    model.eval();
    double total = 0;
    int64_t count = 0;
    for (std::size_t b = 0; b < examples.size(); b += 256) {
        auto batch = collate(examples, b, std::min(examples.size(), b + 256), model.config().maxLen);
        auto logits = model.forward(batch.tokens.to(device));
        auto targets = batch.targets.to(device);
        auto loss = torch::nn::functional::cross_entropy(
            logits.reshape({-1, logits.size(-1)}), targets.reshape(-1),
            torch::nn::functional::CrossEntropyFuncOptions().ignore_index(kIgnore).reduction(torch::kSum));
        total += loss.item<double>();
        count += (targets != kIgnore).sum().item<int64_t>();
    }
    model.train(wasTraining);
    return count > 0 ? total / count : 0;
}

// The options that shape the learning-rate schedule and the batches, as
// state.json records them so that --resume goes on with the same run.
nlohmann::json scheduleOf(const TrainOptions& o)
{
    return {{"steps", o.steps},          {"batch", o.batchSize},   {"lr", o.learningRate},
            {"min_lr", o.minLearningRate}, {"warmup", o.warmupSteps}, {"weight_decay", o.weightDecay},
            {"partner_lr_scale", o.partnerLrScale}};
}

void writeState(const std::filesystem::path& dir, const TrainOptions& o, int step, int stepsBefore, double tokens,
                double seconds)
{
    std::ofstream out(dir / "state.json.tmp");
    const nlohmann::json state{{"step", step},     {"steps_before", stepsBefore},
                               {"tokens", tokens}, {"seconds", seconds},
                               {"schedule", scheduleOf(o)}};
    out << state.dump(2) << '\n';
    out.close();
    std::filesystem::rename(dir / "state.json.tmp", dir / "state.json");
}

struct Session {
    int step = 0;        // this run's optimiser steps (the schedule's position)
    int stepsBefore = 0; // steps the starting weights had taken in the runs before (--init-from)
    double tokens = 0;
    double seconds = 0;
};

// The "step" the trainer wrote into a weights file's metadata: how many
// optimiser steps those weights have taken in all; 0 when absent (weights from
// elsewhere).
int stepsTrained(const std::filesystem::path& weights)
{
    const auto metadata = safetensors::loadMetadata(weights);
    const auto it = metadata.find("step");
    if (it == metadata.end()) return 0;
    std::size_t used = 0;
    int steps = -1;
    try {
        steps = std::stoi(it->second, &used);
    } catch (const std::exception&) {
    }
    if (steps < 0 || used != it->second.size())
        throw std::runtime_error(weights.string() + ": metadata \"step\" is \"" + it->second
                                 + "\", not a count of training steps");
    return steps;
}

Session prepareFolder(const TrainOptions& o, TrainingData& data, Vocab& vocab, ModelConfig& config, std::ostream& log)
{
    std::filesystem::create_directories(o.outDir / "checkpoint");
    Session s;
    if (o.resume && !o.styleLexicon.empty())
        throw std::invalid_argument("--styles starts a run; a resumed one keeps the styles its folder has");
    if (o.resume && !o.exampleThemes.empty())
        throw std::invalid_argument("--examples starts a run; a resumed one keeps the examples its folder has");
    if (!(o.partnerLrScale > 0)) throw std::invalid_argument("the partner learning-rate scale must be positive");
    if (o.resume && o.partners)
        throw std::invalid_argument("--partners starts a run; a resumed one keeps what its config.json says");
    if (!o.initFrom.empty() && o.growLayers > 0 && !o.exampleThemes.empty())
        throw std::invalid_argument("--examples and --grow-layers: grow the model in one run, add the examples in the next");
    if (!o.initFrom.empty() && o.growLayers > 0 && !o.styleLexicon.empty())
        throw std::invalid_argument("--styles and --grow-layers: grow the model in one run, add the styles in the next");
    if (o.resume) {
        vocab = Vocab::load(o.outDir / "vocab.txt");
        config = ModelConfig::load(o.outDir / "config.json");
        const auto state = nlohmann::json::parse(std::ifstream(o.outDir / "checkpoint" / "state.json"));
        s.step = state.at("step").get<int>();
        s.stepsBefore = state.value("steps_before", 0);
        s.tokens = state.at("tokens").get<double>();
        s.seconds = state.at("seconds").get<double>();
        log << "resuming at step " << s.step << " of " << o.steps << " (learning rate " << o.learningRate
            << " after " << o.warmupSteps << " warm-up steps, cosine to " << o.minLearningRate << ", batch "
            << o.batchSize << ")\n";
    } else if (!o.initFrom.empty()) {
        // Fine-tuning keeps the shipped vocabulary and shape, so its weights fit as they are.
        vocab = Vocab::load(o.initFrom / "vocab.txt");
        config = ModelConfig::load(o.initFrom / "config.json");
        if (o.growLayers > 0) {
            if (o.growLayers <= config.layers)
                throw std::invalid_argument("--grow-layers " + std::to_string(o.growLayers) + " must exceed the "
                                            + std::to_string(config.layers) + " layers of " + o.initFrom.string());
            log << "growing " << config.layers << " layers to " << o.growLayers << '\n';
            config.layers = o.growLayers;
        }
        takeStyles(o, vocab, config);
        takeExamples(o, vocab, config);
        if (o.partners && !config.partners) log << "adding partner embeddings (P starts at zero)\n";
        config.partners = config.partners || o.partners;
        vocab.save(o.outDir / "vocab.txt");
        config.save(o.outDir / "config.json");
        s.stepsBefore = stepsTrained(o.initFrom / "model.safetensors");
        log << "starting from the weights of " << o.initFrom.string() << " (trained " << s.stepsBefore
            << " steps; the batches go on from there)\n";
    } else {
        vocab = data.buildVocab(o.vocabMinCount);
        config.vocabSize = vocab.size();
        config.partners = o.partners;
        takeStyles(o, vocab, config);
        takeExamples(o, vocab, config);
        vocab.save(o.outDir / "vocab.txt");
        config.save(o.outDir / "config.json");
    }
    labelDataStyles(data, vocab, o.outDir, &log);
    data.restrictTo(vocab);
    data.hengpi().save(o.outDir / "hengpi.txt");
    ToneTable::fromIdioms(o.dataDir / "idioms" / "idioms-pinyin.json").save(o.outDir / "tones.tsv");
    return s;
}

std::vector<TrainingExample> validationExamples(const TrainingData& data, const Vocab& vocab)
{
    std::vector<TrainingExample> out;
    for (const auto& s : data.sources())
        for (const auto& p : s.valid) out.push_back(TrainingData::lowerLineExample(p, vocab));
    return out;
}

void save(Lm& model, torch::optim::AdamW& optimizer, const TrainOptions& o, const Session& s)
{
    safetensors::save(o.outDir / "model.safetensors", weightsOf(model),
                      {{"step", std::to_string(s.stepsBefore + s.step)}});
    torch::save(optimizer, (o.outDir / "checkpoint" / "optimizer.pt").string());
    writeState(o.outDir / "checkpoint", o, s.step, s.stepsBefore, s.tokens, s.seconds);
}

// bf16 autocast on `device` for the life of the scope; its cast weights are
// dropped at the end, as they are stale once the optimiser steps.
class Bf16Autocast {
public:
    Bf16Autocast(bool on, const torch::Device& device) : m_on(on), m_type(device.type())
    {
        if (!m_on) return;
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
        at::autocast::set_autocast_dtype(m_type, at::kBFloat16);
        at::autocast::set_autocast_enabled(m_type, true);
#else
        if (m_type == torch::kCPU) {
            at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
            at::autocast::set_cpu_enabled(true);
        } else {
            at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
            at::autocast::set_enabled(true);
        }
#endif
    }
    ~Bf16Autocast()
    {
        if (!m_on) return;
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
        at::autocast::set_autocast_enabled(m_type, false);
#else
        if (m_type == torch::kCPU) at::autocast::set_cpu_enabled(false);
        else at::autocast::set_enabled(false);
#endif
        at::autocast::clear_cache();
    }
    Bf16Autocast(const Bf16Autocast&) = delete;
    Bf16Autocast& operator=(const Bf16Autocast&) = delete;

private:
    bool m_on;
    c10::DeviceType m_type;
};

// The mean next-token loss of a batch, in fp32 whatever the products ran in.
torch::Tensor batchLoss(LmImpl& model, const torch::Tensor& tokens, const torch::Tensor& targets, bool bf16)
{
    const Bf16Autocast autocast(bf16, tokens.device());
    const auto logits = model.forward(tokens).to(torch::kFloat32);
    return torch::nn::functional::cross_entropy(logits.reshape({-1, logits.size(-1)}), targets.reshape(-1),
                                                torch::nn::functional::CrossEntropyFuncOptions().ignore_index(kIgnore));
}

// The summed log-probability of each example's targets (differentiable
// unless under a NoGradGuard).
torch::Tensor sequenceLogProbs(LmImpl& model, const std::vector<TrainingExample>& examples,
                                                         const torch::Device& device, bool bf16)
{
    auto batch = collate(examples, 0, examples.size(), model.config().maxLen);
    const auto targets = batch.targets.to(device);
    const auto mask = targets != kIgnore;
    torch::Tensor logits;
    {
        const Bf16Autocast autocast(bf16, device);
        logits = model.forward(batch.tokens.to(device)).to(torch::kFloat32);
    }
    const auto picked = torch::log_softmax(logits, -1).gather(-1, targets.clamp_min(0).unsqueeze(-1)).squeeze(-1);
    return (picked * mask).sum(1);
}

// Preference training's state: the pairs, split into trained and held out,
// and the starting weights' log-probabilities of each couplet.
class PreferenceTraining {
public:
    bool active() const { return !m_train.empty(); }

    void prepare(const TrainOptions& o, LmImpl& model, const Vocab& vocab, const torch::Device& device, bool resumed,
                 std::ostream& log)
    {
        if (o.preferences.empty()) return;
        if (!(o.preferenceBeta > 0)) throw std::invalid_argument("--preference-beta must be positive");
        if (!(o.preferenceWeight > 0)) throw std::invalid_argument("--preference-weight must be positive");
        if (o.preferenceBatch < 1) throw std::invalid_argument("--preference-batch must be at least 1");
        auto set = loadPreferences(o.preferences, vocab);
        for (auto& p : set.pairs) (p.heldOut ? m_held : m_train).push_back(std::move(p));
        if (m_train.empty())
            throw std::runtime_error(o.preferences.string() + ": no preference pair to train on ("
                                     + std::to_string(m_held.size()) + " held out, " + std::to_string(set.skipped)
                                     + " skipped)");
        log << "preferences: " << m_train.size() << " pairs to train on, " << m_held.size() << " held out, "
            << set.skipped << " skipped (a character outside the vocabulary); beta " << o.preferenceBeta
            << ", weight " << o.preferenceWeight << ", " << o.preferenceBatch << " pairs a step\n";
        const auto refPath = o.outDir / "checkpoint" / "preference-reference.pt";
        const auto count = static_cast<int64_t>(m_train.size() + m_held.size());
        if (resumed) {
            if (!std::filesystem::exists(refPath))
                throw std::runtime_error(refPath.string() + " is missing: this run did not start with --preferences");
            torch::load(m_reference, refPath.string());
            if (m_reference.dim() != 2 || m_reference.size(0) != count || m_reference.size(1) != 2)
                throw std::runtime_error(refPath.string() + ": its reference log-probabilities are not of the "
                                         + std::to_string(count) + " pairs of " + o.preferences.string());
        } else {
            m_reference = torch::cat({logProbsOf(model, m_train, device, o.bf16), logProbsOf(model, m_held, device, o.bf16)});
            torch::save(m_reference, refPath.string());
        }
        m_heldTargets = targetCounts(m_held, model.config().maxLen);
        if (!m_held.empty()) {
            const auto ref = heldReference();
            log << "held out: the starting model gives the printable couplet the higher log-probability per token in "
                << std::fixed << std::setprecision(1) << 100 * perTokenAgreement(ref) << "% of " << m_held.size()
                << " pairs (sum: " << 100 * (ref.select(1, 0) > ref.select(1, 1)).to(torch::kFloat64).mean().item<double>()
                << "%)\n";
        }
    }

    // The DPO loss of a draw of training pairs (model in eval mode: no
    // dropout, as the reference had none), and the share it orders right.
    std::pair<torch::Tensor, double> stepLoss(LmImpl& model, const TrainOptions& o, const torch::Device& device,
                                              std::mt19937_64& rng)
    {
        std::vector<int64_t> picks;
        std::vector<TrainingExample> examples;
        std::uniform_int_distribution<std::size_t> any(0, m_train.size() - 1);
        for (int i = 0; i < o.preferenceBatch; ++i) picks.push_back(static_cast<int64_t>(any(rng)));
        for (auto i : picks) examples.push_back(m_train[static_cast<std::size_t>(i)].chosen);
        for (auto i : picks) examples.push_back(m_train[static_cast<std::size_t>(i)].rejected);
        const bool wasTraining = model.is_training();
        model.eval();
        const auto logp = sequenceLogProbs(model, examples, device, o.bf16).view({2, -1}).t();
        model.train(wasTraining);
        const auto margin = margins(logp, m_reference.index_select(0, torch::tensor(picks)).to(device), o.preferenceBeta);
        const double right = (margin > 0).to(torch::kFloat64).mean().item<double>();
        return {-torch::nn::functional::logsigmoid(margin).mean(), right};
    }

    // On the held-out pairs: the DPO loss, the share of pairs whose implicit
    // reward ranks the printable one first, and the share the model's own
    // log-probability per token does.
    void report(LmImpl& model, const TrainOptions& o, const torch::Device& device, std::ostream& log)
    {
        if (m_held.empty()) return;
        torch::NoGradGuard guard;
        const auto logp = logProbsOf(model, m_held, device, o.bf16);
        const auto margin = margins(logp, heldReference(), o.preferenceBeta);
        log << "held-out preferences: DPO loss " << std::fixed << std::setprecision(4)
            << -torch::nn::functional::logsigmoid(margin).mean().item<double>() << "  reward orders "
            << std::setprecision(1) << 100 * (margin > 0).to(torch::kFloat64).mean().item<double>()
            << "%  log-probability per token orders " << 100 * perTokenAgreement(logp) << "%"
            << std::endl;
    }

private:
    // DPO's margins: beta x how much more the model than the reference favours the chosen couplet
    // ([pairs, 2] log-probabilities of the chosen and the rejected, each).
    static torch::Tensor margins(const torch::Tensor& logp, const torch::Tensor& ref, double beta)
    {
        return beta * ((logp.select(1, 0) - ref.select(1, 0)) - (logp.select(1, 1) - ref.select(1, 1)));
    }

    // [pairs, 2]: the targets of the chosen and the rejected couplet, as collate() keeps them.
    static torch::Tensor targetCounts(const std::vector<PreferencePair>& pairs, int maxLen)
    {
        const auto count = [maxLen](const TrainingExample& ex) {
            const auto len = std::min(ex.tokens.size(), static_cast<std::size_t>(maxLen));
            return static_cast<double>(std::count(ex.target.begin(), ex.target.begin() + static_cast<std::ptrdiff_t>(len > 0 ? len - 1 : 0), 1));
        };
        auto out = torch::zeros({static_cast<int64_t>(pairs.size()), 2}, torch::kFloat64);
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            out[static_cast<int64_t>(i)][0] = count(pairs[i].chosen);
            out[static_cast<int64_t>(i)][1] = count(pairs[i].rejected);
        }
        return out;
    }

    torch::Tensor heldReference() const { return m_reference.slice(0, static_cast<int64_t>(m_train.size())); }

    // The share of held-out pairs whose printable couplet has the higher log-probability per token.
    double perTokenAgreement(const torch::Tensor& heldLogProbs) const
    {
        const auto perToken = heldLogProbs / m_heldTargets;
        return (perToken.select(1, 0) > perToken.select(1, 1)).to(torch::kFloat64).mean().item<double>();
    }

    // [pairs, 2]: the summed log-probability of the chosen and the rejected couplet.
    static torch::Tensor logProbsOf(LmImpl& model, const std::vector<PreferencePair>& pairs, const torch::Device& device,
                                    bool bf16)
    {
        torch::NoGradGuard guard;
        const bool wasTraining = model.is_training();
        model.eval();
        std::vector<torch::Tensor> parts{torch::zeros({0, 2}, torch::kFloat64)};
        for (std::size_t b = 0; b < pairs.size(); b += 128) {
            std::vector<TrainingExample> examples;
            const auto end = std::min(pairs.size(), b + 128);
            for (auto i = b; i < end; ++i) examples.push_back(pairs[i].chosen);
            for (auto i = b; i < end; ++i) examples.push_back(pairs[i].rejected);
            parts.push_back(sequenceLogProbs(model, examples, device, bf16).to(torch::kCPU).to(torch::kFloat64).view({2, -1}).t());
        }
        model.train(wasTraining);
        return torch::cat(parts);
    }

    std::vector<PreferencePair> m_train;
    std::vector<PreferencePair> m_held;
    torch::Tensor m_reference;   // [train + held, 2], float64 on the CPU
    torch::Tensor m_heldTargets; // [held, 2]: the targets of each held-out couplet
};

// Which of `from` layers new layer j copies when `from` layers grow to `to`:
// the new ones are spread evenly, each right above the layer it copies.
int grownSource(int j, int from, int to)
{
    // Old layer i lands at position i + (number of new layers inserted below it).
    int position = 0;
    for (int i = 0; i < from; ++i) {
        const int insertedAfter = (i + 1) * (to - from) / from - i * (to - from) / from;
        if (j == position) return i;
        if (j > position && j <= position + insertedAfter) return -1 - i; // a new copy of layer i
        position += 1 + insertedAfter;
    }
    throw std::logic_error("grownSource: layer out of range");
}

// Weights read from a model without partner embeddings, for one with them:
// P starts at zero, so the model computes the same function as the weights.
void addZeroPartner(std::map<std::string, torch::Tensor>& tensors, const ModelConfig& config)
{
    if (config.partners && !tensors.count("partner.weight"))
        tensors["partner.weight"] = torch::zeros({config.dim, config.dim});
}

} // namespace

// Loads a shallower model's weights into `lm` (see TrainOptions::growLayers).
void growWeightsInto(LmImpl& lm, const std::filesystem::path& path, int layers)
{
    auto map = safetensors::load(path);
    int from = 0;
    while (map.count("blocks." + std::to_string(from) + ".ln1.weight")) ++from;
    if (from == 0 || from >= layers) throw std::runtime_error(path.string() + ": cannot grow " + std::to_string(from) + " layers");
    std::map<std::string, torch::Tensor> grown;
    for (const auto& [name, tensor] : map)
        if (name.rfind("blocks.", 0) != 0) grown[name] = tensor;
    for (int j = 0; j < layers; ++j) {
        const int source = grownSource(j, from, layers);
        const bool fresh = source < 0;
        const std::string src = "blocks." + std::to_string(fresh ? -1 - source : source) + ".";
        const std::string dst = "blocks." + std::to_string(j) + ".";
        for (const auto& [name, tensor] : map) {
            if (name.rfind(src, 0) != 0) continue;
            const std::string rest = name.substr(src.size());
            torch::Tensor t = tensor.clone();
            if (fresh && (rest.rfind("attn.proj.", 0) == 0 || rest.rfind("mlp.down.", 0) == 0)) t.zero_();
            grown[dst + rest] = t;
        }
    }
    addZeroPartner(grown, lm.config());
    loadWeightsInto(lm, std::move(grown), path);
}

void train(const TrainOptions& o, std::ostream& log)
{
#ifdef __GLIBC__
    // libtorch frees and allocates the logits and their gradients (about 90 MB
    // each at batch 128) every step. glibc maps anything that large afresh
    // (its mmap threshold stops at 32 MB) and the kernel then zeroes some
    // 25,000 pages per tensor per step: a sixth of the trainer's time, measured.
    // Served from the heap and kept there, they are reused instead.
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    torch::set_num_threads(o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    torch::manual_seed(o.seed);
    const torch::Device device(o.device == "cuda" ? torch::kCUDA : torch::kCPU);

    auto data = TrainingData::load(o.dataDir);
    Vocab vocab;
    ModelConfig config = o.config;
    Session s = prepareFolder(o, data, vocab, config, log);
    for (const auto& src : data.sources())
        log << "source " << src.name << ": " << src.train.size() << " train, " << src.valid.size()
            << " valid pairs, weight " << src.weight << '\n';
    log << "vocabulary " << vocab.size() << ", 横批 phrases " << data.hengpi().phrases().size() << ", skipped lines "
        << data.skipped() << '\n';

    Lm model(config);
    model->to(device);
    const auto adamw = torch::optim::AdamWOptions(o.learningRate).weight_decay(o.weightDecay).betas({0.9, 0.95});
    // With partnerLrScale, P is a second parameter group that learns at its own rate.
    const bool partnerGroup = config.partners && o.partnerLrScale != 1;
    std::vector<torch::optim::OptimizerParamGroup> groups;
    if (partnerGroup) {
        std::vector<torch::Tensor> rest, partner;
        for (const auto& p : model->named_parameters())
            (p.key() == "partner.weight" ? partner : rest).push_back(p.value());
        groups.emplace_back(rest);
        groups.emplace_back(partner, std::make_unique<torch::optim::AdamWOptions>(adamw));
        log << "partner embeddings learn at " << o.partnerLrScale << "x the learning rate\n";
    } else {
        groups.emplace_back(model->parameters());
    }
    torch::optim::AdamW optimizer(groups, adamw);
    if (o.resume) {
        loadWeightsInto(*model, o.outDir / "model.safetensors");
        torch::load(optimizer, (o.outDir / "checkpoint" / "optimizer.pt").string());
    } else if (!o.initFrom.empty() && o.growLayers > 0) {
        growWeightsInto(*model, o.initFrom / "model.safetensors", config.layers);
    } else if (!o.initFrom.empty()) {
        auto tensors = safetensors::load(o.initFrom / "model.safetensors");
        widenEmbedding(tensors, config.vocabSize);
        addZeroPartner(tensors, config);
        loadWeightsInto(*model, std::move(tensors), o.initFrom / "model.safetensors");
    }
    int64_t params = 0;
    for (const auto& p : model->parameters()) params += p.numel();
    log << "model: " << params << " parameters, dim " << config.dim << ", layers " << config.layers << ", heads "
        << config.heads << (config.partners ? ", partner embeddings" : "") << '\n';
    log << "products: " << (o.bf16 ? "bf16 (autocast; weights, optimiser and loss in fp32)" : "fp32") << '\n';

    PreferenceTraining preferences;
    preferences.prepare(o, *model, vocab, device, o.resume, log);
    std::mt19937_64 preferenceRng(o.seed ^ (0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(s.step)));
    double dpoSum = 0, dpoRight = 0;
    const auto valid = validationExamples(data, vocab);
    // Seeded by the steps the weights have taken in all, so that a run from
    // --init-from weights does not replay the batches of the run that made them.
    BatchStream stream(data, vocab, o.batchSize, config.maxLen,
                       o.seed + static_cast<std::uint64_t>(s.stepsBefore + s.step));
    std::vector<ExampleIndex> exampleIndices;
    if (vocab.hasExamples()) {
        const auto themesPath = o.outDir / "themes.tsv";
        const auto lexicon = std::filesystem::exists(themesPath) ? ThemeLexicon::load(themesPath) : ThemeLexicon();
        for (const auto& src : data.sources()) {
            std::vector<ExamplePair> pairs;
            for (const auto& p : src.train) pairs.push_back({p.upper, p.lower});
            exampleIndices.emplace_back(std::move(pairs), lexicon);
            log << "examples: " << src.name << " indexes " << exampleIndices.back().size() << " training pairs\n";
        }
        stream.useExamples(&exampleIndices, o.exampleRate);
    }
    const auto start = std::chrono::steady_clock::now();
    const double secondsBefore = s.seconds;
    double lossSum = 0, windowTokens = 0;
    int lossCount = 0;
    auto windowStart = start;
    model->train();
    while (s.step < o.steps) {
        const double lr = learningRateAt(o, s.step);
        for (std::size_t g = 0; g < optimizer.param_groups().size(); ++g)
            static_cast<torch::optim::AdamWOptions&>(optimizer.param_groups()[g].options())
                .lr(g == 1 && partnerGroup ? lr * o.partnerLrScale : lr);
        auto batch = stream.next();
        const auto loss = batchLoss(*model, batch.tokens.to(device), batch.targets.to(device), o.bf16);
        optimizer.zero_grad();
        if (preferences.active()) {
            const auto [dpo, right] = preferences.stepLoss(*model, o, device, preferenceRng);
            (loss + o.preferenceWeight * dpo).backward();
            dpoSum += dpo.item<double>();
            dpoRight += right;
        } else {
            loss.backward();
        }
        torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
        optimizer.step();
        ++s.step;
        lossSum += loss.item<double>();
        ++lossCount;
        windowTokens += static_cast<double>(batch.realTokens);
        s.tokens += static_cast<double>(batch.realTokens);
        const auto now = std::chrono::steady_clock::now();
        s.seconds = secondsBefore + Seconds(now - start).count();
        if (s.step % o.logEvery == 0) {
            const double rate = windowTokens / Seconds(now - windowStart).count();
            const double stepsPerSec = o.logEvery / Seconds(now - windowStart).count();
            log << "step " << s.step << "/" << o.steps << (vocab.hasExamples() ? "  with examples " + std::to_string(stream.examplesAdded()) : std::string()) << "  loss " << std::fixed << std::setprecision(4)
                << lossSum / lossCount << "  lr " << std::scientific << std::setprecision(2) << lr << std::fixed
                << "  tokens/s " << std::setprecision(0) << rate << "  ETA " << std::setprecision(1)
                << (o.steps - s.step) / stepsPerSec / 60 << " min";
            if (preferences.active())
                log << "  DPO loss " << std::setprecision(4) << dpoSum / lossCount << "  orders " << std::setprecision(1)
                    << 100 * dpoRight / lossCount << "%";
            log << std::endl;
            dpoSum = 0;
            dpoRight = 0;
            lossSum = 0;
            lossCount = 0;
            windowTokens = 0;
            windowStart = now;
        }
        if (s.step % o.evalEvery == 0 || s.step == o.steps) {
            const double nll = meanLoss(*model, valid, device);
            log << "valid: 下联 NLL " << std::fixed << std::setprecision(4) << nll << "  perplexity "
                << std::setprecision(2) << std::exp(nll) << std::endl;
            preferences.report(*model, o, device, log);
        }
        const bool outOfTime = o.maxMinutes > 0 && Seconds(now - start).count() > o.maxMinutes * 60;
        if (s.step % o.saveEvery == 0 || s.step == o.steps || outOfTime) save(model, optimizer, o, s);
        if (outOfTime) {
            log << "time limit reached at step " << s.step << "; continue with --resume" << std::endl;
            return;
        }
    }
    log << "done: " << s.step << " steps, " << std::fixed << std::setprecision(0) << s.tokens << " tokens, "
        << std::setprecision(1) << s.seconds / 60 << " min" << std::endl;
}

bool loadResumedSchedule(TrainOptions& o)
{
    const auto path = o.outDir / "checkpoint" / "state.json";
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path.string() + ": no checkpoint to resume (train without --resume first)");
    nlohmann::json state;
    try {
        state = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(path.string() + ": not a trainer checkpoint state (" + e.what() + ")");
    }
    if (!state.contains("schedule")) return false;
    try {
        const auto& s = state.at("schedule");
        o.steps = s.at("steps").get<int>();
        o.batchSize = s.at("batch").get<int>();
        o.learningRate = s.at("lr").get<double>();
        o.minLearningRate = s.at("min_lr").get<double>();
        o.warmupSteps = s.at("warmup").get<int>();
        o.weightDecay = s.at("weight_decay").get<double>();
        o.partnerLrScale = s.value("partner_lr_scale", 1.0);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(path.string() + ": its \"schedule\" is incomplete (" + e.what() + ")");
    }
    return true;
}

void exportModel(const std::filesystem::path& from, const std::filesystem::path& to, bool half)
{
    std::filesystem::create_directories(to);
    for (const char* name : {"config.json", "vocab.txt", "tones.tsv", "hengpi.txt"})
        std::filesystem::copy_file(from / name, to / name, std::filesystem::copy_options::overwrite_existing);
    for (const char* name : {kStyleFile, "align.tsv", "themes.tsv", kExampleIndexFile})
        if (std::filesystem::exists(from / name))
            std::filesystem::copy_file(from / name, to / name, std::filesystem::copy_options::overwrite_existing);
    std::map<std::string, std::string> metadata;
    auto tensors = safetensors::load(from / "model.safetensors", &metadata);
    if (half)
        for (auto& [name, t] : tensors) t = t.to(torch::kFloat16);
    safetensors::save(to / "model.safetensors", tensors, metadata);
}

double fitExamples(LmImpl& model, const std::vector<TrainingExample>& examples, int steps, double learningRate, bool bf16)
{
    auto batch = collate(examples, 0, examples.size(), model.config().maxLen);
    torch::optim::AdamW optimizer(model.parameters(), torch::optim::AdamWOptions(learningRate).weight_decay(0.0));
    model.train();
    double last = 0;
    for (int i = 0; i < steps; ++i) {
        const auto loss = batchLoss(model, batch.tokens, batch.targets, bf16);
        optimizer.zero_grad();
        loss.backward();
        optimizer.step();
        last = loss.item<double>();
    }
    model.eval();
    return last;
}

double meanTargetNll(LmImpl& model, const std::vector<TrainingExample>& examples)
{
    return meanLoss(model, examples, model.parameters().front().device());
}

} // namespace couplet
