#pragma once

#include "couplet_generator.h"
#include "scheduler.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace couplet {

// How one sampled candidate of a group ended.
struct CandidateSequence {
    RequestStatus status = RequestStatus::Done;
    std::string error;        // when Failed
    bool cutShort = false;    // ended by maxTokens before the couplet was complete
    RequestMetrics metrics;
};

// What a group ends with: its chosen couplets best first (at most
// spec.candidates, score parts filled when reranked), where each came from,
// and how every sampled candidate ended.
struct GroupResult {
    std::vector<Couplet> couplets;
    std::vector<int> sources;                  // couplets[i] is sampled candidate sources[i]
    std::vector<CandidateSequence> sequences;  // by sampled candidate index
    std::string error;                         // the first candidate's failure, "" when none failed
    bool cancelled = false;                    // some candidate was cancelled
};

struct CandidateGroupOptions {
    Priority priority = Priority::Interactive;
    std::uint64_t jobId = 0;   // the scheduler job its sequences belong to (cancelJob())
    int maxTokens = 0;         // > 0: every candidate stops after this many tokens (OpenAI's max_tokens)
    // Scheduler thread: raw text of sampled candidate `index` as it is
    // written, and the tokens it has generated so far.
    std::function<void(int index, std::string_view text, int tokens)> onDelta;
    // Scheduler thread: each sampled candidate as it ends, before onDone (metrics).
    std::function<void(int index, const SequenceResult& result)> onSequence;
    // Scheduler thread, exactly once: after the last candidate ended.
    std::function<void(GroupResult result)> onDone;
};

// "K samples, N answers" in one place (vLLM's ParentRequest): from a spec it
// makes the policies of all sampledCandidates(spec) candidates up front,
// hands them to a Scheduler together, and when the last one has ended ranks
// the finished couplets (the generator's rerank when spec.rerank, else the
// model's mean log-probability) and reports the best spec.candidates once.
// The only code that turns a spec into couplets: the CLI, eval, the editor,
// bulk rows, workers and HTTP all go through it.
class CandidateGroup {
public:
    // Validates the spec and makes every policy; throws std::invalid_argument
    // with the reason when the spec is unusable (nothing is queued then).
    // `generator` must outlive the group's sequences.
    static std::shared_ptr<CandidateGroup> create(const CoupletGenerator& generator, const GenerationSpec& spec,
                                                  CandidateGroupOptions options);

    int sampled() const { return m_sampled; }
    const GenerationSpec& spec() const { return m_spec; }
    // The group's sequences, for a caller that submits them itself (an inbox
    // drained on the scheduler's thread); callable once.
    std::vector<SequenceRequest> takeRequests();
    // Submits every sequence to `scheduler` (on its thread).
    void submitTo(Scheduler& scheduler);
    // Cancels the sequences submitTo() queued; the group then finishes, cancelled.
    void cancel(Scheduler& scheduler);

private:
    CandidateGroup(const CoupletGenerator& generator, const GenerationSpec& spec, CandidateGroupOptions options);
    void makeRequests(const std::shared_ptr<CandidateGroup>& self);
    void onFinished(int index, const SequenceResult& result);
    GroupResult rank();

    const CoupletGenerator& m_generator;
    GenerationSpec m_spec;
    CandidateGroupOptions m_options;
    int m_sampled = 0;
    int m_remaining = 0;
    std::vector<SequenceRequest> m_requests;
    std::vector<RequestId> m_ids;
    // Each sequence's own policy (inside any max-tokens limit), alive while
    // the scheduler runs it: read for its token count as it streams.
    std::vector<const TokenPolicy*> m_policies;
    std::vector<Couplet> m_couplets;          // by index, for candidates that finished
    std::vector<bool> m_finished;
    GroupResult m_result;
};

} // namespace couplet
