#pragma once

#include "device_options.h"
#include "decoder.h"
#include "generation_spec.h"
#include "token_policy.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace couplet {

// What the engine needs from a model. validate() and makePolicy() are
// thread-safe: the local API server's HTTP threads check requests with them. The real one wraps CoupletModel
// (model_backend.h); tests provide a fake, so the engine builds and is
// tested without libtorch.
class EngineBackend {
public:
    virtual ~EngineBackend() = default;

    virtual std::unique_ptr<Decoder> makeDecoder() const = 0;
    // Empty when the spec can be generated, else what is wrong with it.
    virtual std::string validate(const GenerationSpec& spec) const = 0;
    virtual std::unique_ptr<TokenPolicy> makePolicy(const GenerationSpec& spec, int index) const = 0;
    virtual Couplet coupletOf(const TokenPolicy& policy) const = 0;
    // Candidates sampled for an interactive request of spec.candidates: more
    // when the model reranks (CoupletModel's 4x). The default reranks nothing.
    virtual int sampledCandidates(const GenerationSpec& spec) const { return spec.candidates > 1 ? spec.candidates : 1; }
    // Sorts finished candidates best first (CoupletScorer), filling their score parts.
    virtual void rerank(const GenerationSpec& spec, std::vector<Couplet>& candidates) const {}
    virtual std::string deviceName() const = 0;
    virtual std::string summary() const = 0;
    // Intra-op CPU threads for the model; 0 = all cores.
    virtual void setThreads(int threads) {}
};

// A loaded model as other threads see it; empty while none is loaded.
struct LoadedModel {
    std::shared_ptr<const EngineBackend> backend;
    std::string dir;
};

// Loads a backend from a model folder; throws (e.g. ModelLoadError) on failure.
using BackendLoader = std::function<std::shared_ptr<EngineBackend>(const std::filesystem::path& dir,
                                                                   const DeviceOptions& options)>;

} // namespace couplet
