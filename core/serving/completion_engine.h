#pragma once

#include "served_model.h"
#include "serving_job.h"
#include "serving_metrics.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace couplet {

// Thrown by submit() when the queue has no room.
struct QueueFull {
    int outstanding = 0;
};

// What the HTTP front end (ApiServer) needs of an engine: `couplet serve`'s
// ServingEngine, or the desktop app's own engine thread. Every method is
// called from HTTP threads and must be thread-safe.
class CompletionEngine {
public:
    virtual ~CompletionEngine() = default;

    // The model requests are checked against and named after; null while
    // none is loaded (requests then get 503).
    virtual std::shared_ptr<const ServedModel> currentModel() const = 0;
    // n couplets of every spec (validated by the caller; spec.candidates = n),
    // each spec one CandidateGroup (ServingGroups), all submitted in one go so
    // they are admitted together. Choice i*n+c is the c-th best of spec i.
    // maxTokens > 0 cuts each sampled candidate short. Throws QueueFull.
    virtual std::shared_ptr<ServingJob> submit(const std::vector<GenerationSpec>& specs, int n, int maxTokens) = 0;
    // Frees the job's slots at the engine's next turn (within one step).
    virtual void cancel(std::uint64_t jobId) = 0;
    virtual EngineGauges gauges() const = 0;
    // Sequences waiting or running at most; more is QueueFull.
    virtual int capacity() const = 0;
};

} // namespace couplet
