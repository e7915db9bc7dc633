#include "couplet_model.h"

#include "blas_info.h"
#include "couplet_model_impl.h"
#include "couplet_policy.h"
#include "couplet_scorer.h"
#include "decoder_nll.h"
#include "embed_position.h"
#include "example_index.h"
#include "keyword_plan.h"
#include "occasion.h"
#include "routed_decoder.h"
#include "safetensors.h"
#include "source_dir.h"
#include "torch_decoder.h"
#include "utf8.h"
#include "zodiac.h"

#include <algorithm>
#include <iostream>
#include <cstdlib>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace couplet {
namespace {

constexpr int kMaxKeywordChars = 12;
constexpr int kMaxCandidates = 16;
// Weight of the line-end bias (CoupletPolicy::addLengthBias), tuned on the
// validation split: the share of lines whose last character is forced.
constexpr float kLengthBias = 0.5f;
// Logits for starting a missing keyword in the 上联 (continuing one: 3x),
// tuned on the judged set's keyword coverage.
constexpr float kKeywordBonus = 1.0f;
// Keyword counterparts: the blessings a reranked pool tries opposite a
// four-character keyword run, each in one candidate of every eight.
constexpr std::size_t kKeywordCounterparts = 4;
// Reranking: weight of the couplet read backwards (the 上联's mean
// log-probability as the answer to the 下联). Off by default: on the judged
// set it changed 6 of 40 first outputs at 0.5, as many better as worse; on the
// validation split, sampled + reranked, same-place 8.51 -> 8.65 %; and it
// costs a scoring pass per request (eval --rerank: 144 -> 81 couplets/s).
constexpr float kBackwardWeight = 0.0f;
// Reranking: weight of the learned judge's log-odds (judge.bin), where the
// folder has one. Off by default: on the 1,397 outputs of today's model judged
// blind on sheets Z-Z13 it ranks printable below not (AUC 0.42; refitted to
// this model's samples, 0.42), and at the door, weight 0 against the 0.08 it
// had changed 37 of 330 outputs over three draws, which passed 48 against 42
// of 111 verdicts (sheet Z14; MODEL_CARD.md, "The learned judge").
// --judge-weight W turns it on.
constexpr float kJudgeWeight = 0.0f;
// The weight of the model's mean log-probability in the rerank, against the rule terms:
// on 264 judged outputs it alone orders 79% of a prompt's printable / not pairs
// right, the sum at weight 1 64% (MODEL_CARD.md, "Choosing among more candidates").
constexpr float kLikelihoodWeight = 5.0f;

std::string shapeText(const torch::IntArrayRef& shape)
{
    std::ostringstream os;
    os << shape;
    return os.str();
}

torch::Device pickDevice(const DeviceOptions& options)
{
    if (options.device == "cpu") return torch::kCPU;
    const bool cuda = torch::cuda::is_available();
    if (options.device == "cuda" && !cuda)
        throw std::runtime_error("--device cuda: no CUDA GPU is available to libtorch (driver missing, no GPU, or a "
                                 "CPU-only libtorch); use --device cpu or auto");
    if (options.device != "auto" && options.device != "cuda")
        throw std::runtime_error("unknown device '" + options.device + "' (use cpu, cuda or auto)");
    return cuda ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
}

// The CPU decoder that `precision` asks for; empty for libtorch's ops.
std::optional<NativePrecision> pickPrecision(const std::string& precision)
{
    const CpuKernels cpu = CpuKernels::detect();
    if (precision == "libtorch") return std::nullopt;
    if (precision == "fp32") return NativePrecision::Fp32;
    const bool vectorKernels = cpu.avx512 || cpu.avx2;
    if (precision == "bf16") {
        if (!vectorKernels) std::cerr << "warning: this CPU has neither AVX-512 nor AVX2; bf16 runs on slow portable kernels\n";
        return NativePrecision::Bf16;
    }
    if (precision == "int8") {
        if (!vectorKernels) std::cerr << "warning: this CPU has neither AVX-512 nor AVX2; int8 runs on slow portable kernels\n";
        return NativePrecision::Int8;
    }
    // The fastest that keeps the model's output (test_native_precision;
    // docs/benchmark.md): int8 on avx512_vnni, and on AVX2 too, whose int8
    // kernels beat its fp32 and bf16 ones at every batch size (session 10).
    if (precision == "auto")
        return cpu.avx512vnni || cpu.avx2 ? NativePrecision::Int8 : cpu.avx512bf16 ? NativePrecision::Bf16 : NativePrecision::Fp32;
    throw std::runtime_error("unknown precision '" + precision + "' (use auto, fp32, bf16, int8 or libtorch)");
}


// Checks the characters of a user-supplied text; returns "" or the problem,
// naming each character not allowed (invisible ones by code point) and where
// the first stands.
std::string checkChars(const CoupletModelImpl& m, const std::string& what, const std::u32string& text, bool allowMarks)
{
    std::u32string bad, unknown;
    std::size_t firstBad = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char32_t c = text[i];
        const bool ok = utf8::isHan(c) || (allowMarks && isCoupletPunctuation(c));
        if (!ok && bad.empty()) firstBad = i;
        if (!ok && bad.find(c) == std::u32string::npos) bad.push_back(c);
        else if (ok && !m.vocab.contains(c) && unknown.find(c) == std::u32string::npos) unknown.push_back(c);
    }
    if (!bad.empty()) {
        std::string list;
        for (char32_t c : bad) list += (list.empty() ? "" : ", ") + utf8::describe(c);
        return what + " must be Chinese characters" + (allowMarks ? " (with ，、？：！；)" : "") + "; not allowed: " + list
            + " (the first at character " + std::to_string(firstBad + 1) + " of " + std::to_string(text.size()) + ")";
    }
    if (!unknown.empty()) return what + " contains characters the model does not know: " + utf8::encode(unknown);
    return {};
}

std::string validateSampling(const SamplingSettings& s)
{
    if (!(s.temperature > 0 && s.temperature <= 5)) return "temperature must be in (0, 5]";
    if (s.topK < 0) return "top-k must be 0 (off) or positive";
    if (!(s.topP > 0 && s.topP <= 1)) return "top-p must be in (0, 1]";
    if (!(s.repetitionPenalty >= 1 && s.repetitionPenalty <= 3)) return "repetition penalty must be in [1, 3]";
    return {};
}

// Whether required keywords can all be written into the 上联.
std::string validateRequiredKeywords(const GenerationSpec& spec, const std::vector<std::u32string>& keywords,
                                     std::size_t total)
{
    if (!spec.keywordsMustAppear || spec.mode == PromptMode::Upper) return {};
    if (keywords.empty()) return "keywords must appear, but there are none";
    const auto acrostic = utf8::decode(spec.acrostic);
    const std::size_t room = static_cast<std::size_t>(spec.length > 0 ? spec.length : tok::kMaxLineChars)
        - (acrostic.empty() ? 0 : 1);
    if (total > room)
        return "keywords must appear, but their " + std::to_string(total) + " characters do not fit a 上联 of "
            + std::to_string(spec.length > 0 ? spec.length : tok::kMaxLineChars) + " characters"
            + (acrostic.empty() ? "" : " after its 藏头 character");
    for (const auto& k : keywords)
        if (acrostic.size() > 1 && k.find(acrostic[1]) != std::u32string::npos)
            return "keywords must appear in the 上联, but " + utf8::encode(k) + " holds the 下联's 藏头 character "
                + utf8::encode(acrostic[1]);
    return {};
}

// What a model with style tokens writes when a spec names none: the door's
// style, not the verse's.
constexpr WritingStyle kDefaultStyle = WritingStyle::Festive;

std::string validateStyle(const Vocab& vocab, const std::string& style)
{
    if (style.empty()) return {};
    if (!parseStyle(style)) return "style must be " + styleNames() + ", got \"" + style + "\"";
    if (!vocab.hasStyles())
        return "this model has no styles (it was trained without style tokens): leave style unset, not \"" + style + "\"";
    return {};
}

// 嵌名 (藏头 at position 1): the name's characters, where they stand, and
// the tone rule where the name ends the lines (雁足格).
std::string validateEmbedding(const CoupletModelImpl& m, const GenerationSpec& spec)
{
    const auto name = utf8::decode(spec.acrostic);
    const std::string what = spec.embedAt == 1 ? "藏头" : "嵌名";
    if (spec.mode == PromptMode::Acrostic && name.empty()) return what + " needs one or two characters";
    if (name.empty() || spec.mode == PromptMode::Upper) return {};
    if (name.size() > 2)
        return what + " takes a name of one or two characters, one for each line; \"" + spec.acrostic + "\" has "
            + std::to_string(name.size()) + ": for a full name such as 张德顺 give the given name (德顺)";
    if (auto e = checkChars(m, what + " (the name)", name, false); !e.empty()) return e;
    if (auto e = embedPositionProblem(spec.embedAt, spec.length); !e.empty()) return e;
    if (spec.embedAt != 1 && spec.keywordsMustAppear)
        return "keywords must appear, and 嵌名 at " + embedPositionName(spec.embedAt)
            + ": the two cannot be combined (only with 藏头, position 1)";
    if (spec.tonePattern && spec.embedAt == kEmbedLast && m.tones.size() > 0) {
        // The name is the user's and is not changed: a tone that contradicts
        // the rule is refused, with what to do, rather than silently broken.
        const char32_t up = name[0];
        if (m.tones.tone(up) == Tone::Level)
            return "雁足格 puts " + utf8::encode(up) + " at the end of the 上联, which the tone rule wants 仄, but "
                + utf8::encode(up) + " is 平: turn the tone rule off or swap the name's characters";
        if (name.size() > 1 && m.tones.tone(name[1]) == Tone::Oblique)
            return "雁足格 puts " + utf8::encode(name[1]) + " at the end of the 下联, which the tone rule wants 平, but "
                + utf8::encode(name[1]) + " is 仄: turn the tone rule off or swap the name's characters";
    }
    return {};
}

} // namespace

ModelLoadError::ModelLoadError(std::filesystem::path path, const std::string& reason)
    : std::runtime_error("cannot load model: " + path.string() + ": " + reason), m_path(std::move(path)), m_reason(reason)
{
}

void loadWeightsInto(LmImpl& lm, const std::filesystem::path& path)
{
    loadWeightsInto(lm, safetensors::load(path), path);
}

namespace {

// Copies `tensor` into the weight `param` named `name`, refusing another shape.
void copyWeight(torch::Tensor& param, const torch::Tensor& tensor, const std::string& name, const std::filesystem::path& path)
{
    if (tensor.sizes() != param.sizes())
        throw std::runtime_error(path.string() + ": tensor '" + name + "' has shape " + shapeText(tensor.sizes())
                                 + ", config.json needs " + shapeText(param.sizes()));
    param.copy_(tensor.to(param.dtype()));
}

} // namespace

void loadWeightsInto(LmImpl& lm, std::map<std::string, torch::Tensor> map, const std::filesystem::path& path)
{
    torch::NoGradGuard guard;
    for (auto& p : lm.named_parameters()) {
        const auto it = map.find(p.key());
        if (it == map.end()) throw std::runtime_error(path.string() + ": tensor '" + p.key() + "' is missing");
        copyWeight(p.value(), it->second, p.key(), path);
        map.erase(it);
    }
    if (!map.empty()) {
        const std::string name = map.begin()->first;
        throw std::runtime_error(path.string() + ": unexpected tensor '" + name + "'"
                                 + (name == "partner.weight" ? " (partner embeddings, which config.json does not turn on"
                                                               " with \"partners\": true)" : ""));
    }
}

CoupletModel::CoupletModel(std::unique_ptr<CoupletModelImpl> impl) : m_impl(std::move(impl)) {}
CoupletModel::~CoupletModel() = default;

std::shared_ptr<const CoupletModel> CoupletModel::load(const std::filesystem::path& dir, const DeviceOptions& options)
{
    if (!std::filesystem::is_directory(dir)) throw ModelLoadError(dir, "no such model folder");
    auto m = std::make_unique<CoupletModelImpl>();
    m->dir = dir;
    auto attempt = [&](const std::filesystem::path& file, auto&& body) {
        try {
            body();
        } catch (const ModelLoadError&) {
            throw;
        } catch (const std::exception& e) {
            // Readers that name their file already (safetensors) are not named twice.
            std::string reason = e.what();
            if (const std::string named = file.string() + ": "; reason.rfind(named, 0) == 0)
                reason.erase(0, named.size());
            throw ModelLoadError(file, reason);
        }
    };
    attempt(dir / "config.json", [&] { m->config = ModelConfig::load(dir / "config.json"); });
    attempt(dir / "vocab.txt", [&] {
        m->vocab = Vocab::load(dir / "vocab.txt");
        if (m->vocab.size() != m->config.vocabSize)
            throw std::runtime_error("holds " + std::to_string(m->vocab.size()) + " tokens but config.json says "
                                     + std::to_string(m->config.vocabSize));
    });
    if (std::filesystem::exists(dir / "tones.tsv"))
        attempt(dir / "tones.tsv", [&] { m->tones = ToneTable::load(dir / "tones.tsv"); });
    if (std::filesystem::exists(dir / "hengpi.txt"))
        attempt(dir / "hengpi.txt", [&] { m->hengpi = HengpiList::load(dir / "hengpi.txt"); });
    m->hengpi.restrictTo(m->vocab);
    for (const auto& p : m->hengpi.phrases())
        m->hengpiTrie.insert(m->vocab.encode(utf8::encode(p.text)), zodiacOf(p.text), p.occasions);
    m->classes = std::make_unique<TokenClasses>(m->vocab, m->tones);
    if (std::filesystem::exists(dir / "align.tsv"))
        attempt(dir / "align.tsv", [&] {
            m->align = std::make_unique<AlignTable>(AlignTable::load(dir / "align.tsv"));
            m->align->bind(m->vocab);
            for (int t : m->classes->han)
                if (const float c = m->align->closing(t); c > 0) m->closers.emplace_back(t, c);
        });

    if (std::filesystem::exists(dir / "words.tsv"))
        attempt(dir / "words.tsv", [&] { m->words = WordTable::load(dir / "words.tsv"); });
    // The 横批 list's blessings are words too (五福临门, 生意兴隆): jieba's dictionary
    // lacks some, and splits them (五 / 福临 / 门) as if they tore the keyword 五福.
    if (!m->words.empty())
        for (const auto& p : m->hengpi.phrases())
            if (!m->words.find(p.text)) m->words.add(p.text, 100, 'i');
    m->wholeKeywords.build(m->words, m->vocab);
    if (std::filesystem::exists(dir / "bigrams.tsv"))
        attempt(dir / "bigrams.tsv", [&] {
            m->bigrams = std::make_unique<BigramTable>(BigramTable::load(dir / "bigrams.tsv"));
            m->bigrams->bind(m->vocab, &m->words);
            m->bigrams->releaseCounts();
        });
    if (std::filesystem::exists(dir / "themes.tsv"))
        attempt(dir / "themes.tsv", [&] { m->themes = ThemeLexicon::load(dir / "themes.tsv"); });
    if (m->vocab.hasExamples() && std::filesystem::exists(dir / kExampleIndexFile))
        attempt(dir / kExampleIndexFile, [&] { m->examples = ExampleIndex::load(dir / kExampleIndexFile, m->themes); });
    if (const auto judge = dir / kJudgeFile; std::filesystem::exists(judge))
        attempt(judge, [&] {
            m->judge = std::make_unique<CoupletJudge>(CoupletJudge::load(judge, judgeTablesFingerprint(dir)));
        });

    const int threads = options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    torch::set_num_threads(threads);
    attempt(dir, [&] { m->device = pickDevice(options); });
    if (!m->device.is_cuda()) warnOnceAboutBlas();
    m->dtype = m->device.is_cuda() && options.halfPrecision ? torch::kFloat16 : torch::kFloat32;
    m->config.dropout = 0;
    m->lm = Lm(m->config);
    attempt(dir / "model.safetensors", [&] { loadWeightsInto(*m->lm, dir / "model.safetensors"); });
    m->lm->eval();
    attempt(dir, [&] { m->lm->to(m->device, m->dtype); });   // e.g. CUDA out of memory
    for (const auto& p : m->lm->parameters()) m->parameters += p.numel();
    if (const auto acrostic = dir / kAcrosticWeightsFile; std::filesystem::exists(acrostic)) {
        m->acrosticLm = Lm(m->config);
        attempt(acrostic, [&] {
            torch::NoGradGuard guard;
            auto shared = m->lm->named_parameters();
            for (auto& p : m->acrosticLm->named_parameters()) p.value().copy_(shared[p.key()].to(torch::kCPU, torch::kFloat32));
            overrideWeights(*m->acrosticLm, safetensors::load(acrostic), acrostic);
        });
        m->acrosticLm->eval();
        attempt(dir, [&] { m->acrosticLm->to(m->device, m->dtype); });
    }
    if (!m->device.is_cuda()) {
        attempt(dir, [&] { m->native = pickPrecision(options.precision); });
        if (m->native) m->weights = nativeWeightsOf(*m->lm);
        if (m->native && m->acrosticLm) {
            m->acrosticWeights = nativeWeightsOf(*m->acrosticLm);
            m->acrosticLm = Lm(nullptr); // the native decoder reads the copies
        }
    }
    return std::shared_ptr<const CoupletModel>(new CoupletModel(std::move(m)));
}

void overrideWeights(LmImpl& lm, std::map<std::string, torch::Tensor> map, const std::filesystem::path& path)
{
    torch::NoGradGuard guard;
    if (map.empty()) throw std::runtime_error(path.string() + ": holds no tensor");
    auto params = lm.named_parameters();
    for (auto& [name, tensor] : map) {
        auto* p = params.find(name);
        if (p == nullptr) throw std::runtime_error(path.string() + ": unexpected tensor '" + name + "'");
        copyWeight(*p, tensor, name, path);
    }
}

WeightMap nativeWeightsOf(LmImpl& lm)
{
    WeightMap out;
    for (const auto& p : lm.named_parameters()) {
        const auto t = p.value().detach().to(torch::kCPU, torch::kFloat32).contiguous();
        out[p.key()].assign(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
    }
    return out;
}

std::filesystem::path CoupletModel::defaultModelDir()
{
    if (const char* env = std::getenv("COUPLET_MODEL_DIR"); env != nullptr && *env != '\0') return env;
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto installed = exe.parent_path().parent_path() / "share" / "couplet-studio" / "models" / "default";
        if (std::filesystem::exists(installed / "config.json")) return installed;
    }
    return std::filesystem::path(COUPLET_SOURCE_DIR) / "resources" / "models" / "default";
}

std::string CoupletModel::validate(const GenerationSpec& spec) const
{
    const auto& m = *m_impl;
    try {
        if (spec.candidates < 1 || spec.candidates > kMaxCandidates)
            return "candidates must be between 1 and " + std::to_string(kMaxCandidates);
        if (auto e = validateSampling(spec.sampling); !e.empty()) return e;
        if (spec.year < 0 || spec.year > kMaxYear)
            return "year must be 0 (none) or 1 to " + std::to_string(kMaxYear) + ", got " + std::to_string(spec.year);
        if (auto e = validateStyle(m.vocab, spec.style); !e.empty()) return e;
        if (spec.mode != PromptMode::Upper && (spec.length < 0 || spec.length > tok::kMaxLineChars))
            return "length must be 0 (free) or 1 to " + std::to_string(tok::kMaxLineChars) + " characters";
        const auto hengpi = utf8::decode(spec.hengpi);
        if (!hengpi.empty()) {
            if (hengpi.size() != 4) return "横批 must be four characters, got " + std::to_string(hengpi.size());
            if (auto e = checkChars(m, "横批", hengpi, false); !e.empty()) return e;
        }
        if (spec.tonePattern && m.tones.size() == 0) return "this model has no tone table (tones.tsv)";
        if (auto e = validateEmbedding(m, spec); !e.empty()) return e;
        if (spec.mode == PromptMode::Upper) {
            const auto upper = utf8::decode(spec.upper);
            if (upper.empty()) return "上联 is empty";
            if (upper.size() > static_cast<std::size_t>(tok::kMaxLineChars))
                return "上联 is too long: " + std::to_string(upper.size()) + " characters, at most "
                    + std::to_string(tok::kMaxLineChars);
            if (isCoupletPunctuation(upper.front()) || isCoupletPunctuation(upper.back()))
                return "上联 must not begin or end with punctuation";
            return checkChars(m, "上联", upper, true);
        }
        std::size_t total = 0;
        const auto keywords = splitKeywords(spec.keywords);
        for (const auto& k : keywords) {
            total += k.size();
            if (auto e = checkChars(m, "keywords", k, false); !e.empty()) return e;
        }
        if (total == 0 && spec.mode == PromptMode::Keywords) return "keywords are empty";
        if (total > static_cast<std::size_t>(kMaxKeywordChars))
            return "keywords are too long: " + std::to_string(total) + " characters, at most "
                + std::to_string(kMaxKeywordChars);
        if (auto e = validateRequiredKeywords(spec, keywords, total); !e.empty()) return e;
    } catch (const std::invalid_argument& e) {
        return std::string("text is not valid UTF-8: ") + e.what();
    }
    return {};
}

namespace {

// The theme example of a prompt (example_index.h): the best related couplet
// of the model's examples.tsv, when the model reads examples and there is
// room for it before the lines still to write.
std::optional<ExamplePair> themeExampleOf(const CoupletModelImpl& m, const GenerationSpec& spec, const ConstraintSpec& c,
                                          std::uint64_t seed)
{
    if (!spec.themeExample || !m.vocab.hasExamples() || m.examples.empty()) return std::nullopt;
    const auto query = utf8::decode(spec.mode == PromptMode::Upper ? spec.upper : spec.keywords + " " + spec.acrostic);
    std::u32string text;
    for (char32_t ch : query) text.push_back(ch == U' ' || ch == U',' ? U'，' : ch); // no bigram across keywords
    const auto found = m.examples.best(text, ThemeLexicon::themesOf(text, c.yearAnimal), seed);
    if (!found) return std::nullopt;
    const auto& ex = m.examples.pair(*found);
    // Room for the prompt and the lines still to write (a free length: up to 16 tokens a line).
    const std::size_t line = spec.mode == PromptMode::Upper ? c.upper.size()
                             : c.length > 0 ? static_cast<std::size_t>(c.length) + 1 : 16;
    const std::size_t need = 16 + (spec.mode == PromptMode::Upper ? 2 * line + 6 : 2 * line + 8) + 2 * ex.upper.size() + 3;
    if (need > static_cast<std::size_t>(m.config.maxLen)) return std::nullopt;
    return ex;
}

// The prompt's four-character keyword run (ConstraintSpec::counterpartRun): a
// keyword of four, or two keywords of two in the order given; empty = none.
std::u32string keywordRun(const std::vector<std::u32string>& keywords)
{
    for (const auto& k : keywords)
        if (k.size() == 4) return k;
    if (keywords.size() == 2 && keywords[0].size() == 2 && keywords[1].size() == 2) return keywords[0] + keywords[1];
    return {};
}

// The blessings of hengpi.txt that answer `run` best, at most `limit`: none
// sharing a character with it or repeating one of its own, none naming a year
// animal, none of an occasion the prompt does not name; ranked by the mean
// 对仗 score of the aligned characters (align.tsv), less a point where the
// last characters have the same tone and a third where the second do, plus a
// point for a phrase of the prompt's occasion and a third for a stock one.
std::vector<std::u32string> keywordCounterparts(const CoupletModelImpl& m, const std::u32string& run, unsigned occasions,
                                                std::size_t limit)
{
    if (run.size() != 4 || !m.align) return {};
    std::vector<std::pair<double, std::u32string>> ranked;
    const auto sameTone = [&](char32_t a, char32_t b) {
        const Tone x = m.tones.tone(a), y = m.tones.tone(b);
        return x != Tone::Unknown && x == y;
    };
    for (const auto& p : m.hengpi.phrases()) {
        const auto& w = p.text;
        if (w.size() != 4 || firstZodiac(w) >= 0) continue;
        if (!fitsOccasions(p.occasions, occasions)) continue;
        bool ok = true;
        for (std::size_t i = 0; i < 4 && ok; ++i)
            ok = run.find(w[i]) == std::u32string::npos && w.find(w[i]) == i;
        if (!ok) continue;
        double score = 0;
        for (std::size_t i = 0; i < 4; ++i) score += m.align->score(m.vocab.id(run[i]), m.vocab.id(w[i])) / 4.0;
        if (sameTone(run[3], w[3])) score -= 1.0;
        if (sameTone(run[1], w[1])) score -= 0.3;
        if ((p.occasions & occasions) != 0) score += 1.0; // the prompt's occasion's own (财源广进 for 生意)
        if (p.stock) score += 0.3;
        ranked.emplace_back(score, w);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::u32string> out;
    for (std::size_t i = 0; i < ranked.size() && out.size() < limit; ++i) out.push_back(ranked[i].second);
    return out;
}

} // namespace

std::unique_ptr<TokenPolicy> CoupletModel::makePolicy(const GenerationSpec& spec, int index) const
{
    if (auto e = validate(spec); !e.empty()) throw std::invalid_argument(e);
    const auto& m = *m_impl;
    std::vector<int> prompt{tok::kBos};
    if (m.vocab.hasStyles())
        prompt.push_back(m.vocab.styleToken(spec.style.empty() ? kDefaultStyle : *parseStyle(spec.style)));
    std::vector<int> theme;
    DecodingBiases biases;
    ConstraintSpec c;
    c.tonePattern = spec.tonePattern;
    c.freeHengpi = spec.freeHengpi;
    c.hengpi = m.vocab.encode(spec.hengpi);
    c.mixedZodiac = spec.mixedZodiac;
    // The year animal the prompt names (龙年, 吉羊, a 横批 羊年大吉); a given
    // 上联's own (金羊送福) comes first, in CoupletConstraints.
    const std::string named = spec.mode == PromptMode::Upper ? spec.hengpi : spec.keywords + spec.acrostic + spec.hengpi;
    c.yearAnimal = firstZodiac(utf8::decode(named));
    if (c.yearAnimal < 0 && spec.year > 0) c.yearAnimal = zodiacOfYear(spec.year);
    c.hengpiAnimal = c.yearAnimal;
    c.occasions = occasionsOf(utf8::decode(spec.mode == PromptMode::Upper ? spec.upper : spec.keywords + " " + spec.acrostic));
    if (spec.mode == PromptMode::Upper) {
        c.upper = m.vocab.encode(spec.upper);
        c.length = countCharacters(utf8::decode(spec.upper));
        prompt.push_back(tok::lengthToken(static_cast<int>(c.upper.size())));
        prompt.push_back(tok::kUpper);
        prompt.insert(prompt.end(), c.upper.begin(), c.upper.end());
        prompt.push_back(tok::kLower);
    } else {
        const auto keywords = splitKeywords(spec.keywords);
        if (!keywords.empty()) prompt.push_back(tok::kKeywords);
        for (std::size_t i = 0; i < keywords.size(); ++i) {
            if (i > 0) prompt.push_back(tok::kSep);
            for (char32_t ch : keywords[i]) theme.push_back(m.vocab.id(ch));
            prompt.insert(prompt.end(), theme.end() - static_cast<std::ptrdiff_t>(keywords[i].size()), theme.end());
            biases.keywords.emplace_back(theme.end() - static_cast<std::ptrdiff_t>(keywords[i].size()), theme.end());
            if (spec.keywordsMustAppear) c.requiredKeywords.push_back(biases.keywords.back());
        }
        c.themes = biases.keywords;
        // Keyword counterparts: every other candidate of a reranked pool
        // writes one of the best few blessings opposite the keyword run;
        // the first candidate, and every one without reranking, is the model's own.
        if (spec.rerank && index % 2 == 1) {
            const auto run = keywordRun(keywords);
            const auto answers = keywordCounterparts(m, run, c.occasions, kKeywordCounterparts);
            if (!answers.empty()) {
                c.counterpartRun = m.vocab.encode(utf8::encode(run));
                c.counterpart = m.vocab.encode(utf8::encode(answers[static_cast<std::size_t>(index / 2) % answers.size()]));
            }
        }
        const auto acrostic = m.vocab.encode(spec.acrostic);
        if (!acrostic.empty()) {
            // The model was trained on 藏头 only: elsewhere the name is
            // forced at its place and the model writes around it.
            if (spec.embedAt == 1) {
                prompt.push_back(tok::kAcrostic);
                prompt.insert(prompt.end(), acrostic.begin(), acrostic.end());
            }
            c.acrosticUpper = acrostic[0];
            if (acrostic.size() > 1) c.acrosticLower = acrostic[1];
            // The name, then each of its characters: 德顺 -> 德泽流芳, 志强 -> 国富民强.
            if (acrostic.size() > 1) c.themes.push_back(acrostic);
            for (int t : acrostic) c.themes.push_back({t});
            c.embedIndex = embedIndex(spec.embedAt, spec.length);
        }
        // The length counts Han characters; the <lenN> token counts the line's
        // tokens, as training wrote it: a 九言 line with its mark is <len10>.
        c.length = spec.length;
        if (spec.length > 0) prompt.push_back(tok::lengthToken(lineShapeFor(spec.length).tokens()));
        prompt.push_back(tok::kUpper);
    }
    SamplingSettings sampling = spec.sampling;
    if (sampling.seed != 0) sampling.seed = candidateSeed(sampling.seed, index);
    if (const auto ex = themeExampleOf(m, spec, c, sampling.seed + static_cast<std::uint64_t>(index))) {
        // The theme example: a real couplet of the prompt's theme, as context
        // before the prompt (training wrote it there); never to be handed back.
        const auto prefix = examplePrefix(m.vocab, *ex);
        prompt.insert(prompt.begin() + static_cast<std::ptrdiff_t>(examplePrefixAt(prompt, m.vocab)), prefix.begin(),
                      prefix.end());
        biases.exampleLines = {m.vocab.encode(utf8::encode(ex->upper)), m.vocab.encode(utf8::encode(ex->lower))};
    }
    biases.alignWeight = spec.alignWeight >= 0 || !m.align ? std::max(0.0f, spec.alignWeight)
                                                           : static_cast<float>(m.align->defaultWeight());
    // By default not for a 嵌名 couplet: after the name's forced character the bias
    // picks a common word that starts with it (金台, 鸿钧, 平天) over the model's
    // choice; blind, 藏头 couplets passed 5 of 112 times with it, 14 without
    // (docs/judged/2026-12-06/acrostic).
    biases.bigramWeight = spec.bigramWeight >= 0 || !m.bigrams ? std::max(0.0f, spec.bigramWeight)
                          : spec.mode == PromptMode::Acrostic ? 0.0f
                                                              : static_cast<float>(m.bigrams->defaultWeight());
    biases.wholeKeywords = spec.wholeKeywords && !m.wholeKeywords.empty();
    biases.lengthBias = spec.lengthBias >= 0 ? spec.lengthBias : kLengthBias;
    biases.keywordBonus = spec.keywordBonus >= 0 ? spec.keywordBonus : kKeywordBonus;
    return std::make_unique<CoupletPolicy>(m, std::move(prompt), std::move(c), sampling, std::move(theme), std::move(biases));
}

std::string CoupletModel::themeExample(const GenerationSpec& spec, int index) const
{
    // As makePolicy: the constraints it reads (year animal, lengths) and the candidate's seed.
    const auto& m = *m_impl;
    ConstraintSpec c;
    const std::string named = spec.mode == PromptMode::Upper ? spec.hengpi : spec.keywords + spec.acrostic + spec.hengpi;
    c.yearAnimal = firstZodiac(utf8::decode(named));
    if (c.yearAnimal < 0 && spec.year > 0) c.yearAnimal = zodiacOfYear(spec.year);
    if (spec.mode == PromptMode::Upper) c.upper = m.vocab.encode(spec.upper);
    c.length = spec.mode == PromptMode::Upper ? countCharacters(utf8::decode(spec.upper)) : spec.length;
    std::uint64_t seed = spec.sampling.seed;
    if (seed != 0) seed = candidateSeed(seed, index);
    const auto ex = themeExampleOf(m, spec, c, seed + static_cast<std::uint64_t>(index));
    return ex ? utf8::encode(ex->upper) + "\t" + utf8::encode(ex->lower) : std::string();
}

Couplet CoupletModel::coupletOf(const TokenPolicy& policy)
{
    const auto* p = dynamic_cast<const CoupletPolicy*>(&policy);
    if (p == nullptr) throw std::invalid_argument("not a policy of a CoupletModel");
    return p->couplet();
}

void CoupletModel::rerank(const GenerationSpec& spec, std::vector<Couplet>& candidates) const
{
    ScoreWeights weights;
    weights.backward = spec.backwardWeight >= 0 ? spec.backwardWeight : kBackwardWeight;
    if (weights.backward > 0) {
        const auto backward = backwardLogProbs(candidates);
        for (std::size_t i = 0; i < candidates.size(); ++i) candidates[i].backwardLogProb = backward[i];
    }
    weights.judge = spec.judgeWeight >= 0 ? spec.judgeWeight : kJudgeWeight;
    weights.likelihood = spec.likelihoodWeight >= 0 ? spec.likelihoodWeight : kLikelihoodWeight;
    PromptLexicons lexicons;
    lexicons.judge = m_impl->judge.get();
    lexicons.words = &m_impl->words;
    lexicons.themes = &m_impl->themes;
    lexicons.givenUpper = spec.mode == PromptMode::Upper;
    lexicons.prompt = utf8::decode(lexicons.givenUpper ? spec.upper : spec.keywords + " " + spec.acrostic);
    const int named = firstZodiac(lexicons.prompt);
    lexicons.themeNames = ThemeLexicon::themesOf(lexicons.prompt, named >= 0 ? named : spec.year > 0 ? zodiacOfYear(spec.year) : -1);
    const CoupletScorer scorer(m_impl->vocab, m_impl->tones, m_impl->align.get(), weights, std::move(lexicons));
    scorer.rerank(candidates, spec.mode == PromptMode::Upper ? std::vector<std::u32string>{} : splitKeywords(spec.keywords));
}

std::vector<double> CoupletModel::backwardLogProbs(const std::vector<Couplet>& couplets) const
{
    std::vector<TrainingExample> examples;
    std::vector<std::size_t> scored; // couplets with two lines of equal length
    const int style = m_impl->vocab.styleToken(kDefaultStyle); // -1 without styles
    for (std::size_t i = 0; i < couplets.size(); ++i) {
        const auto up = m_impl->vocab.encode(couplets[i].upper), down = m_impl->vocab.encode(couplets[i].lower);
        if (up.empty() || up.size() != down.size()) continue;
        examples.push_back(answerExample(down, up, style));
        scored.push_back(i);
    }
    std::vector<double> out(couplets.size(), 0.0);
    if (examples.empty()) return out;
    std::lock_guard lock(m_scoringMutex);
    if (!m_scoring) m_scoring = makeDecoder();
    const auto nll = decoderTargetNlls(*m_scoring, examples, kMaxCandidates * 4);
    for (std::size_t k = 0; k < scored.size(); ++k) out[scored[k]] = -nll[k];
    return out;
}

std::unique_ptr<Decoder> CoupletModel::makeDecoder() const
{
    const auto& m = *m_impl;
    if (m.native) {
        auto main = std::make_unique<NativeDecoder>(m.config, m.weights, *m.native);
        if (m.acrosticWeights.empty()) return main;
        return std::make_unique<RoutedDecoder>(std::move(main), std::make_unique<NativeDecoder>(m.config, m.acrosticWeights, *m.native),
                                               tok::kAcrostic);
    }
    auto main = std::make_unique<TorchDecoder>(m.lm, m.device);
    if (!m.acrosticLm) return main;
    return std::make_unique<RoutedDecoder>(std::move(main), std::make_unique<TorchDecoder>(m.acrosticLm, m.device), tok::kAcrostic);
}

bool CoupletModel::hasAcrosticWeights() const
{
    return !m_impl->acrosticWeights.empty() || m_impl->acrosticLm;
}

std::string CoupletModel::deviceName() const
{
    if (!m_impl->device.is_cuda())
    {
        const std::string threads = std::to_string(torch::get_num_threads()) + " threads, ";
        if (!m_impl->native) return "cpu (" + threads + "fp32, libtorch on " + detectBlas().name() + ")";
        return "cpu (" + threads + nameOf(*m_impl->native) + ", native "
            + kernelName(*m_impl->native, CpuKernels::detect()) + " kernels)";
    }
    return "cuda:" + std::to_string(m_impl->device.index() < 0 ? 0 : m_impl->device.index())
        + (m_impl->dtype == torch::kFloat16 ? " (fp16)" : " (fp32)");
}

const CoupletModelImpl& implOf(const CoupletModel& model) { return *model.m_impl; }
const Vocab& CoupletModel::vocab() const { return m_impl->vocab; }
const ToneTable& CoupletModel::tones() const { return m_impl->tones; }
const AlignTable* CoupletModel::align() const { return m_impl->align.get(); }
const std::filesystem::path& CoupletModel::dir() const { return m_impl->dir; }
const CoupletJudge* CoupletModel::judge() const { return m_impl->judge.get(); }

JudgeTables CoupletModel::judgeTables() const
{
    return {&m_impl->vocab, &m_impl->tones, m_impl->align.get(), &m_impl->words};
}

std::string CoupletModel::summary() const
{
    const auto& m = *m_impl;
    std::ostringstream os;
    os << m.parameters / 1e6 << "M parameters, " << m.config.layers << " layers x " << m.config.dim << ", vocabulary "
       << m.vocab.size() << ", " << m.hengpi.phrases().size() << " 横批 phrases, "
       << (m.align ? std::to_string(m.align->rows()) + " 对仗 table rows, " : std::string()) << m.dir.string();
    return os.str();
}

} // namespace couplet
