#pragma once

#include "candidate_group.h"
#include "serving_job.h"
#include "serving_metrics.h"

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace couplet {

// What one HTTP request (its prompts, n, best_of, max_tokens) turns into: one
// CandidateGroup per prompt whose chosen couplets fill the ServingJob's
// choices (prompt i's k-th best is choice i*n+k). The one binding between
// the HTTP front end and a scheduler, shared by `couplet serve`'s
// ServingEngine and the desktop app's engine thread.
//
// Streaming: a group that samples exactly the n couplets it returns (best_of
// = n, greedy, or rerank off) streams each choice live, token by token; one
// that chooses n of more candidates can only tell which ones won once all of
// them ended, so its choices arrive whole, each in one event, at that moment.
struct ServingGroupsOptions {
    Priority priority = Priority::Interactive;
    std::uint64_t jobId = 0;
    int n = 1;
    int maxTokens = 0;
    ServingMetrics* metrics = nullptr;
    // Scheduler thread, after each sampled sequence ended (counted in `sequences`).
    std::function<void(const SequenceResult&)> onSequence;
    // Scheduler thread: live text of choice `index`, as the job hears it, and
    // its tokens so far (the app's editor view).
    std::function<void(int index, std::string_view raw, int tokens)> onDelta;
    // Scheduler thread: after all the prompt's choices of one group are in the job.
    std::function<void(int prompt, const GroupResult&)> onGroupDone;
};

struct ServingGroups {
    std::vector<SequenceRequest> requests;   // every sampled sequence, to submit together
    int sequences = 0;                       // requests.size()

    // Sequences a request of `specs` x n samples (for the queue's capacity).
    static int sequencesFor(const std::vector<GenerationSpec>& specs, int n);
    // A prompt's spec as its group's: n couplets (spec.candidates = n).
    static GenerationSpec groupSpec(const GenerationSpec& spec, int n);
    // Throws std::invalid_argument when a spec is unusable (nothing is queued then).
    static ServingGroups make(const CoupletGenerator& generator, const std::vector<GenerationSpec>& specs,
                              std::shared_ptr<ServingJob> job, ServingGroupsOptions options);
};

} // namespace couplet
