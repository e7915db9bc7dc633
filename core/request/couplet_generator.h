#pragma once

#include "decoder.h"
#include "generation_spec.h"
#include "token_policy.h"

#include <memory>
#include <string>
#include <vector>

namespace couplet {

// How many couplets are sampled for a spec that asks for spec.candidates:
// spec.bestOf when set, else, when reranking, kRerankFactor per couplet but
// never fewer than kRerankPool (at most kMaxSampledCandidates), else as many
// as asked for. The one rule every door follows (CandidateGroup asks it);
// never fewer than spec.candidates. The first choice of a request for three
// couplets is the couplet of a request for one: the same 16 candidates.
// The pool of 16: judged blind on the frozen prompts, the best of 16 was
// printable 21-26% against 14-17% for the best of 4, and an interactive
// request samples 16 whether it asks for 1 or 3 couplets, in one batch
// (MODEL_CARD.md, "Choosing among more candidates").
inline constexpr int kRerankFactor = 4;
inline constexpr int kRerankPool = 16;
// A bulk row whose spec sets no bestOf samples this many
// (SchedulerRowGenerator::groupSpec): a row costs about as many single
// samples as it samples, and issue 35 keeps a bulk row within 4x of one.
// A bulk job that asks for kRerankPool (`batch --candidates 16`) chooses as
// the editor does: it writes the editor's couplet.
inline constexpr int kBulkRerankFactor = 4;
inline constexpr int kMaxSampledCandidates = 64;
int sampledCandidates(const GenerationSpec& spec);

// The model as the request layer sees it, without libtorch: checks a spec,
// makes the policy of each sampled candidate, reads the couplet a finished
// policy wrote and ranks finished candidates. CoupletModelGenerator
// (core/generation) is the real one; tests use fakes. validate(),
// makePolicy(), coupletOf() and rerank() are thread-safe.
class CoupletGenerator {
public:
    virtual ~CoupletGenerator() = default;

    // Empty when the spec can be generated, else what is wrong with it
    // (e.g. "上联 contains characters the model does not know: ①").
    virtual std::string validate(const GenerationSpec& spec) const = 0;
    // The policy of sampled candidate `index` (its own seed); throws
    // std::invalid_argument for an unusable spec.
    virtual std::unique_ptr<TokenPolicy> makePolicy(const GenerationSpec& spec, int index) const = 0;
    // The couplet written so far by a policy from makePolicy().
    virtual Couplet coupletOf(const TokenPolicy& policy) const = 0;
    // Scores finished candidates (CoupletScorer's parts) and sorts them best first.
    virtual void rerank(const GenerationSpec& spec, std::vector<Couplet>& candidates) const = 0;

    // A decoder over the model's weights, for the Scheduler that runs its policies.
    virtual std::unique_ptr<Decoder> makeDecoder() const = 0;
    virtual std::string deviceName() const = 0;   // "cpu (2 threads, fp32, ...)"
    virtual std::string summary() const = 0;      // parameters, layers, vocabulary, folder
    // Intra-op CPU threads for the model; 0 = all cores.
    virtual void setThreads(int threads) {}
};

} // namespace couplet
