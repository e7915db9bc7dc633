// Continuous-batching decode benchmark of llama.cpp on our couplet model,
// through llama.cpp's C API only (llama.h, ggml-backend.h, ggml-cpu.h).
//
// For each batch size N: N sequences, each one of the given token-id prompts
// (cycled), are prefilled, then decoded greedily for --steps steps with one
// llama_batch per step holding the last token of every sequence. Only the
// decode steps are timed as "step" time; prefill and the whole run are
// reported beside it. Built and run by run.sh; see README.md.

#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "llama.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kDefaultSteps = 15;
constexpr int kWarmupSteps = 3;
constexpr int kBatchCapacity = 512; // tokens per llama_decode; >= the largest N (256)
constexpr int kCachePadding = 256; // llama.cpp rounds each cache stream up to this many cells
const char* const kDefaultBatches = "1,2,4,8,16,32,64,128,256";

using Clock = std::chrono::steady_clock;
using Prompt = std::vector<llama_token>;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Options {
    std::string model, prompts, json, vocab, libDir, kvType = "f16", flashAttn = "auto";
    std::vector<int> batches;
    std::map<std::string, std::string> meta;
    int steps = kDefaultSteps, threads = 2, repeat = 1, dumpGreedy = 0;
    bool kvUnified = false, verbose = false;
};

void usage()
{
    std::cerr << "llama_bench --model M.gguf --prompts P.txt [--batches " << kDefaultBatches << "] [--steps "
              << kDefaultSteps << "]\n"
                 "            [--threads 2] [--repeat R] [--json FILE] [--lib-dir DIR] [--kv-type f16|f32]\n"
                 "            [--flash-attn auto|on|off] [--kv-unified] [--dump-greedy K --vocab vocab.txt]\n"
                 "            [--meta KEY=VALUE]... [--verbose]\n";
}

std::vector<int> parseList(const std::string& text)
{
    std::vector<int> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        const int n = std::stoi(item);
        if (n < 1 || n > kBatchCapacity / 2) throw std::invalid_argument("batch size out of range: " + item);
        out.push_back(n);
    }
    return out;
}

Options parseOptions(int argc, char** argv)
{
    Options o;
    o.batches = parseList(kDefaultBatches);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
            return argv[++i];
        };
        if (a == "--model") o.model = next();
        else if (a == "--prompts") o.prompts = next();
        else if (a == "--batches") o.batches = parseList(next());
        else if (a == "--steps") o.steps = std::stoi(next());
        else if (a == "--threads") o.threads = std::stoi(next());
        else if (a == "--repeat") o.repeat = std::stoi(next());
        else if (a == "--json") o.json = next();
        else if (a == "--vocab") o.vocab = next();
        else if (a == "--lib-dir") o.libDir = next();
        else if (a == "--kv-type") o.kvType = next();
        else if (a == "--flash-attn") o.flashAttn = next();
        else if (a == "--kv-unified") o.kvUnified = true;
        else if (a == "--dump-greedy") o.dumpGreedy = std::stoi(next());
        else if (a == "--verbose") o.verbose = true;
        else if (a == "--meta") {
            const std::string kv = next();
            const auto eq = kv.find('=');
            if (eq == std::string::npos) throw std::invalid_argument("--meta wants KEY=VALUE, got " + kv);
            o.meta[kv.substr(0, eq)] = kv.substr(eq + 1);
        } else throw std::invalid_argument("unknown option " + a);
    }
    if (o.model.empty() || o.prompts.empty()) throw std::invalid_argument("--model and --prompts are required");
    if (o.steps < 1 || o.threads < 1 || o.repeat < 1) throw std::invalid_argument("--steps, --threads, --repeat must be >= 1");
    if (o.kvType != "f16" && o.kvType != "f32") throw std::invalid_argument("--kv-type must be f16 or f32");
    return o;
}

std::vector<Prompt> loadPrompts(const std::string& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open prompts file " + path);
    std::vector<Prompt> out;
    int row = 0;
    for (std::string line; std::getline(in, line);) {
        ++row;
        std::istringstream words(line);
        Prompt p;
        for (std::string w; words >> w;) {
            char* end = nullptr;
            const long id = std::strtol(w.c_str(), &end, 10);
            if (*end != '\0' || id < 0)
                throw std::runtime_error(path + ":" + std::to_string(row) + ": not a token id: '" + w + "'");
            p.push_back(static_cast<llama_token>(id));
        }
        if (!p.empty()) out.push_back(std::move(p));
    }
    if (out.empty()) throw std::runtime_error(path + ": no prompts");
    return out;
}

std::vector<std::string> loadVocab(const std::string& path)
{
    std::vector<std::string> pieces;
    if (path.empty()) return pieces;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open vocabulary " + path);
    for (std::string line; std::getline(in, line);) pieces.push_back(line);
    return pieces;
}

// Warnings and errors, each distinct message once; everything with --verbose.
void logCallback(ggml_log_level level, const char* text, void* verbose)
{
    static std::set<std::string> seen;
    if (*static_cast<bool*>(verbose) || ((level == GGML_LOG_LEVEL_WARN || level == GGML_LOG_LEVEL_ERROR)
                                         && seen.insert(text).second))
        std::fputs(text, stderr);
}

// The shared object of the CPU backend that ggml_backend_load_best picked.
std::string loadedCpuLibrary()
{
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);)
        if (const auto at = line.find("libggml-cpu-"); at != std::string::npos) return line.substr(at);
    return "(built in)";
}

struct Backend {
    std::string library, features;
    ggml_threadpool_t pool = nullptr;
};

// Loads the best CPU variant for this machine and starts one thread pool
// that every context reuses (without one, ggml starts threads per graph).
Backend loadBackend(const Options& o)
{
    if (o.libDir.empty()) ggml_backend_load_all();
    else ggml_backend_load_all_from_path(o.libDir.c_str());
    ggml_backend_reg_t cpu = ggml_backend_reg_by_name("CPU");
    if (cpu == nullptr) throw std::runtime_error("no CPU backend could be loaded (check --lib-dir)");
    Backend b;
    b.library = loadedCpuLibrary();
    if (auto getFeatures = reinterpret_cast<ggml_backend_get_features_t>(
            ggml_backend_reg_get_proc_address(cpu, "ggml_backend_get_features")))
        for (auto* f = getFeatures(cpu); f != nullptr && f->name != nullptr; ++f)
            b.features += (b.features.empty() ? "" : " ") + std::string(f->name) + "=" + f->value;
    using NewPool = ggml_threadpool_t (*)(ggml_threadpool_params*);
    auto newPool = reinterpret_cast<NewPool>(ggml_backend_reg_get_proc_address(cpu, "ggml_threadpool_new"));
    if (newPool == nullptr) throw std::runtime_error("the CPU backend exports no ggml_threadpool_new");
    ggml_threadpool_params params = ggml_threadpool_params_default(o.threads);
    b.pool = newPool(&params);
    if (b.pool == nullptr) throw std::runtime_error("cannot start a thread pool of " + std::to_string(o.threads));
    return b;
}

void freeBackend(const Backend& b)
{
    using FreePool = void (*)(ggml_threadpool_t);
    ggml_backend_reg_t cpu = ggml_backend_reg_by_name("CPU");
    if (auto freePool = reinterpret_cast<FreePool>(ggml_backend_reg_get_proc_address(cpu, "ggml_threadpool_free")))
        freePool(b.pool);
}

llama_context* makeContext(llama_model* model, const Options& o, int n, int perSequence, const Backend& backend)
{
    llama_context_params p = llama_context_default_params();
    // Unified: one cache that every sequence's attention scans (masked);
    // split: one stream per sequence, which llama.cpp pads to 256 cells.
    auto roundUp = [](int v) { return (v + kCachePadding - 1) / kCachePadding * kCachePadding; };
    p.n_ctx = static_cast<uint32_t>(o.kvUnified ? roundUp(n * perSequence) : n * roundUp(perSequence));
    p.n_batch = p.n_ubatch = kBatchCapacity;
    p.n_seq_max = static_cast<uint32_t>(n);
    p.n_threads = p.n_threads_batch = o.threads;
    p.kv_unified = o.kvUnified;
    p.type_k = p.type_v = o.kvType == "f32" ? GGML_TYPE_F32 : GGML_TYPE_F16;
    p.flash_attn_type = o.flashAttn == "on"    ? LLAMA_FLASH_ATTN_TYPE_ENABLED
        : o.flashAttn == "off"                 ? LLAMA_FLASH_ATTN_TYPE_DISABLED
                                               : LLAMA_FLASH_ATTN_TYPE_AUTO;
    p.no_perf = true;
    llama_context* ctx = llama_init_from_model(model, p);
    if (ctx == nullptr) throw std::runtime_error("cannot create a context for batch " + std::to_string(n));
    llama_attach_threadpool(ctx, backend.pool, backend.pool);
    return ctx;
}

llama_token argmax(const float* logits, int vocab)
{
    return static_cast<llama_token>(std::max_element(logits, logits + vocab) - logits);
}

struct Sequences {
    std::vector<std::vector<llama_token>> generated; // [n][tokens sampled so far]
    std::vector<int> position;                       // next position of each sequence
};

void addToken(llama_batch& b, llama_token token, llama_pos pos, llama_seq_id seq, bool output)
{
    const int i = b.n_tokens++;
    b.token[i] = token;
    b.pos[i] = pos;
    b.n_seq_id[i] = 1;
    b.seq_id[i][0] = seq;
    b.logits[i] = output ? 1 : 0;
}

void decodeOrThrow(llama_context* ctx, const llama_batch& b)
{
    if (const int rc = llama_decode(ctx, b); rc != 0)
        throw std::runtime_error("llama_decode failed with " + std::to_string(rc) + " on " + std::to_string(b.n_tokens)
                                 + " tokens");
}

// Prompts of all sequences, packed kBatchCapacity tokens a call; the last
// token of each prompt yields its first generated token.
void prefill(llama_context* ctx, llama_batch& b, const std::vector<Prompt>& prompts, Sequences& s, int vocab)
{
    const int n = static_cast<int>(s.position.size());
    std::vector<int> owner; // batch index -> sequence, for outputs
    b.n_tokens = 0;
    auto flush = [&] {
        decodeOrThrow(ctx, b);
        for (int i = 0; i < b.n_tokens; ++i)
            if (b.logits[i]) s.generated[owner[i]].push_back(argmax(llama_get_logits_ith(ctx, i), vocab));
        b.n_tokens = 0;
        owner.clear();
    };
    for (int seq = 0; seq < n; ++seq) {
        const Prompt& p = prompts[seq % prompts.size()];
        for (std::size_t t = 0; t < p.size(); ++t) {
            if (b.n_tokens == kBatchCapacity) flush();
            owner.push_back(seq);
            addToken(b, p[t], static_cast<llama_pos>(t), seq, t + 1 == p.size());
        }
        s.position[seq] = static_cast<int>(p.size());
    }
    if (b.n_tokens > 0) flush();
}

// One token per sequence; returns the milliseconds inside llama_decode.
double decodeStep(llama_context* ctx, llama_batch& b, Sequences& s, int vocab)
{
    const int n = static_cast<int>(s.position.size());
    b.n_tokens = 0;
    for (int seq = 0; seq < n; ++seq) addToken(b, s.generated[seq].back(), s.position[seq]++, seq, true);
    const auto start = Clock::now();
    decodeOrThrow(ctx, b);
    const double ms = msSince(start);
    for (int seq = 0; seq < n; ++seq) s.generated[seq].push_back(argmax(llama_get_logits_ith(ctx, seq), vocab));
    return ms;
}

struct Point {
    int batch = 0;
    double promptTokens = 0, prefillMs = 0, stepMsMean = 0, stepMsMedian = 0, decodeMsMean = 0, wallMs = 0;
    double tokensPerSecond = 0;
    std::vector<std::vector<llama_token>> greedy; // of the first sequences, for --dump-greedy
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// One run of `steps` decode steps over n fresh sequences.
Sequences runOnce(llama_context* ctx, const std::vector<Prompt>& prompts, int n, int steps, int vocab,
                  std::vector<double>* stepMs, std::vector<double>* decodeMs, double* prefillMs)
{
    llama_memory_clear(llama_get_memory(ctx), true);
    llama_batch b = llama_batch_init(kBatchCapacity, 0, 1);
    Sequences s{std::vector<std::vector<llama_token>>(n), std::vector<int>(n, 0)};
    try {
        const auto start = Clock::now();
        prefill(ctx, b, prompts, s, vocab);
        if (prefillMs) *prefillMs += msSince(start);
        for (int i = 0; i < steps; ++i) {
            const auto stepStart = Clock::now();
            const double ms = decodeStep(ctx, b, s, vocab);
            if (stepMs) stepMs->push_back(msSince(stepStart));
            if (decodeMs) decodeMs->push_back(ms);
        }
    } catch (...) {
        llama_batch_free(b);
        throw;
    }
    llama_batch_free(b);
    return s;
}

Point measure(llama_model* model, const Options& o, const Backend& backend, const std::vector<Prompt>& prompts, int n)
{
    std::size_t longest = 0;
    double promptTokens = 0;
    for (int i = 0; i < n; ++i) {
        longest = std::max(longest, prompts[i % prompts.size()].size());
        promptTokens += static_cast<double>(prompts[i % prompts.size()].size());
    }
    const auto wallStart = Clock::now();
    llama_context* ctx = makeContext(model, o, n, static_cast<int>(longest) + o.steps + 1, backend);
    const int vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
    Point p;
    p.batch = n;
    p.promptTokens = promptTokens / n;
    std::vector<double> stepMs, decodeMs;
    try {
        runOnce(ctx, prompts, n, std::min(kWarmupSteps, o.steps), vocab, nullptr, nullptr, nullptr);
        for (int r = 0; r < o.repeat; ++r) {
            Sequences s = runOnce(ctx, prompts, n, o.steps, vocab, &stepMs, &decodeMs, &p.prefillMs);
            if (r == 0) p.greedy.assign(s.generated.begin(), s.generated.begin() + std::min(n, 16));
        }
    } catch (...) {
        llama_free(ctx);
        throw;
    }
    llama_free(ctx);
    p.wallMs = msSince(wallStart);
    p.prefillMs /= o.repeat;
    for (double v : stepMs) p.stepMsMean += v / static_cast<double>(stepMs.size());
    for (double v : decodeMs) p.decodeMsMean += v / static_cast<double>(decodeMs.size());
    p.stepMsMedian = median(stepMs);
    p.tokensPerSecond = n * 1000.0 / p.stepMsMean;
    return p;
}

std::string pieceText(const std::vector<std::string>& vocab, llama_token id)
{
    return id >= 0 && id < static_cast<llama_token>(vocab.size()) ? vocab[id] : "?";
}

// The first k prompts decoded together, and each alone: the two must agree.
void dumpGreedy(llama_model* model, const Options& o, const Backend& backend, const std::vector<Prompt>& prompts,
                const std::vector<std::string>& vocab)
{
    const int k = std::min(o.dumpGreedy, 16);
    const Point batched = measure(model, o, backend, prompts, k);
    int agree = 0;
    for (int i = 0; i < k; ++i) {
        const Prompt& prompt = prompts[i % prompts.size()];
        const Point alone = measure(model, o, backend, {prompt}, 1);
        const auto& tokens = batched.greedy[i];
        agree += alone.greedy[0] == tokens ? 1 : 0;
        std::string ids, text;
        for (llama_token t : prompt) ids += std::to_string(t) + " ";
        ids += "|";
        for (llama_token t : tokens) {
            ids += " " + std::to_string(t);
            text += pieceText(vocab, t);
        }
        std::printf("greedy %d: %s%s%s%s\n", i, ids.c_str(), vocab.empty() ? "" : "  ", text.c_str(),
                    alone.greedy[0] == tokens ? "" : "  (differs when decoded alone)");
    }
    std::printf("batch %d vs batch 1: %d of %d sequences identical\n", k, agree, k);
}

std::string jsonEscape(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;
        out += c;
    }
    return out;
}

void writeJson(const std::string& path, const Options& o, const Backend& backend, const std::vector<Point>& points,
               double totalMs)
{
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write " + path);
    out << "{\n  \"engine\": \"llama.cpp\",\n  \"model\": \"" << jsonEscape(o.model) << "\",\n  \"threads\": " << o.threads
        << ",\n  \"steps\": " << o.steps << ",\n  \"repeat\": " << o.repeat << ",\n  \"kv_type\": \"" << o.kvType
        << "\",\n  \"kv_unified\": " << (o.kvUnified ? "true" : "false") << ",\n  \"flash_attn\": \"" << o.flashAttn
        << "\",\n  \"cpu_backend\": \"" << jsonEscape(backend.library) << "\",\n  \"cpu_features\": \""
        << jsonEscape(backend.features) << "\",\n  \"total_wall_ms\": " << totalMs << ",\n  \"meta\": {";
    for (auto it = o.meta.begin(); it != o.meta.end(); ++it)
        out << (it == o.meta.begin() ? "" : ",") << "\n    \"" << jsonEscape(it->first) << "\": \""
            << jsonEscape(it->second) << "\"";
    out << "\n  },\n  \"points\": [";
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Point& p = points[i];
        out << (i ? "," : "") << "\n    {\"batch\": " << p.batch << ", \"prompt_tokens_mean\": " << p.promptTokens
            << ", \"prefill_ms\": " << p.prefillMs << ", \"step_ms_mean\": " << p.stepMsMean
            << ", \"step_ms_median\": " << p.stepMsMedian << ", \"decode_ms_mean\": " << p.decodeMsMean
            << ", \"tokens_per_s\": " << p.tokensPerSecond << ", \"wall_ms\": " << p.wallMs << "}";
    }
    out << "\n  ]\n}\n";
}

int run(const Options& o)
{
    const auto start = Clock::now();
    const auto prompts = loadPrompts(o.prompts);
    const auto vocab = loadVocab(o.vocab);
    bool verbose = o.verbose;
    llama_log_set(logCallback, &verbose);
    llama_backend_init();
    const Backend backend = loadBackend(o);
    std::printf("llama.cpp CPU backend: %s\nfeatures: %s\nsystem: %s\n", backend.library.c_str(),
                backend.features.c_str(), llama_print_system_info());
    llama_model_params mp = llama_model_default_params();
    llama_model* model = llama_model_load_from_file(o.model.c_str(), mp);
    if (model == nullptr) throw std::runtime_error("cannot load " + o.model);
    std::vector<Point> points;
    if (o.dumpGreedy > 0) dumpGreedy(model, o, backend, prompts, vocab);
    else std::printf("%6s %10s %10s %10s %12s %11s\n", "batch", "ms/step", "median", "prefill", "tokens/s", "wall ms");
    for (int n : o.dumpGreedy > 0 ? std::vector<int>{} : o.batches) {
        points.push_back(measure(model, o, backend, prompts, n));
        const Point& p = points.back();
        std::printf("%6d %10.3f %10.3f %10.2f %12.1f %11.1f\n", n, p.stepMsMean, p.stepMsMedian, p.prefillMs,
                    p.tokensPerSecond, p.wallMs);
        std::fflush(stdout);
    }
    llama_model_free(model);
    freeBackend(backend);
    const double totalMs = msSince(start);
    std::printf("total wall time: %.1f ms\n", totalMs);
    if (!o.json.empty()) writeJson(o.json, o, backend, points, totalMs);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    try {
        o = parseOptions(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "llama_bench: " << e.what() << '\n';
        usage();
        return 2;
    }
    try {
        return run(o);
    } catch (const std::exception& e) {
        std::cerr << "llama_bench: " << e.what() << '\n';
        return 1;
    }
}
