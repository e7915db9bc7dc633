#include "serving_groups.h"

#include <string>

namespace couplet {
namespace {

// The job's side of one group: every candidate's raw text (a chosen one is
// sent whole) and whether its choices stream live.
struct GroupSink {
    std::shared_ptr<ServingJob> job;
    int first = 0;   // its first choice
    int n = 1;
    bool live = false;
    std::vector<std::string> raw;
};

void finishChoices(GroupSink& sink, const GroupResult& result)
{
    if (sink.live) {
        for (int k = 0; k < sink.n; ++k) sink.job->finish(sink.first + k, result.sequences[static_cast<std::size_t>(k)]);
        return;
    }
    for (int k = 0; k < sink.n; ++k) {
        CandidateSequence failed;
        failed.status = result.cancelled ? RequestStatus::Cancelled : RequestStatus::Failed;
        failed.error = result.error.empty() ? "fewer distinct couplets were written than asked for" : result.error;
        if (!result.error.empty() || k >= static_cast<int>(result.couplets.size())) {
            sink.job->finish(sink.first + k, failed);
            continue;
        }
        const auto source = static_cast<std::size_t>(result.sources[static_cast<std::size_t>(k)]);
        sink.job->finish(sink.first + k, result.sequences[source], sink.raw[source]);
    }
}

} // namespace

GenerationSpec ServingGroups::groupSpec(const GenerationSpec& spec, int n)
{
    GenerationSpec s = spec;
    s.candidates = n;
    return s;
}

int ServingGroups::sequencesFor(const std::vector<GenerationSpec>& specs, int n)
{
    int count = 0;
    for (const auto& spec : specs) count += sampledCandidates(groupSpec(spec, n));
    return count;
}

ServingGroups ServingGroups::make(const CoupletGenerator& generator, const std::vector<GenerationSpec>& specs,
                                  std::shared_ptr<ServingJob> job, ServingGroupsOptions options)
{
    ServingGroups out;
    auto shared = std::make_shared<const ServingGroupsOptions>(std::move(options));
    for (std::size_t i = 0; i < specs.size(); ++i) {
        auto sink = std::make_shared<GroupSink>();
        sink->job = job;
        sink->n = shared->n;
        sink->first = static_cast<int>(i) * shared->n;
        const GenerationSpec spec = groupSpec(specs[i], shared->n);
        sink->live = sampledCandidates(spec) == shared->n;
        sink->raw.resize(static_cast<std::size_t>(sampledCandidates(spec)));
        CandidateGroupOptions o;
        o.priority = shared->priority;
        o.jobId = shared->jobId;
        o.maxTokens = shared->maxTokens;
        o.onDelta = [sink, shared](int index, std::string_view text, int tokens) {
            sink->raw[static_cast<std::size_t>(index)] += text;
            if (!sink->live) return;
            sink->job->deliver(sink->first + index, text);
            if (shared->onDelta) shared->onDelta(sink->first + index, text, tokens);
        };
        // Counted before the job hears of it: its response may be written
        // (and /metrics read) as soon as it has.
        o.onSequence = [shared](int, const SequenceResult& result) {
            if (ServingMetrics* m = shared->metrics) {
                m->addTokens(result.metrics.promptTokens, result.metrics.generatedTokens);
                if (result.metrics.generatedTokens > 0) m->observeFirstToken(result.metrics.firstTokenMs / 1000.0);
            }
            if (shared->onSequence) shared->onSequence(result);
        };
        o.onDone = [sink, shared, prompt = static_cast<int>(i)](GroupResult result) {
            finishChoices(*sink, result);
            if (shared->onGroupDone) shared->onGroupDone(prompt, result);
        };
        auto group = CandidateGroup::create(generator, spec, std::move(o));
        for (auto& r : group->takeRequests()) out.requests.push_back(std::move(r));
    }
    out.sequences = static_cast<int>(out.requests.size());
    return out;
}

} // namespace couplet
