#include "candidate_group.h"

#include "couplet_scorer.h"
#include "limited_policy.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace couplet {

CandidateGroup::CandidateGroup(const CoupletGenerator& generator, const GenerationSpec& spec,
                               CandidateGroupOptions options)
    : m_generator(generator), m_spec(spec), m_options(std::move(options)), m_sampled(sampledCandidates(spec))
{
}

std::shared_ptr<CandidateGroup> CandidateGroup::create(const CoupletGenerator& generator, const GenerationSpec& spec,
                                                       CandidateGroupOptions options)
{
    if (std::string error = generator.validate(spec); !error.empty()) throw std::invalid_argument(error);
    std::shared_ptr<CandidateGroup> group(new CandidateGroup(generator, spec, std::move(options)));
    try {
        group->makeRequests(group);
    } catch (...) {
        group->m_requests.clear();   // their callbacks hold the group
        throw;
    }
    return group;
}

// Every policy before any submission: if one cannot be made, the exception
// leaves with nothing queued. Each sequence's callbacks hold the group.
void CandidateGroup::makeRequests(const std::shared_ptr<CandidateGroup>& self)
{
    const auto count = static_cast<std::size_t>(m_sampled);
    m_remaining = m_sampled;
    m_couplets.resize(count);
    m_finished.assign(count, false);
    m_result.sequences.resize(count);
    for (int i = 0; i < m_sampled; ++i) {
        SequenceRequest r;
        r.priority = m_options.priority;
        r.jobId = m_options.jobId;
        r.policy = m_generator.makePolicy(m_spec, i);
        m_policies.push_back(r.policy.get());
        if (m_options.maxTokens > 0) r.policy = std::make_unique<LimitedPolicy>(std::move(r.policy), m_options.maxTokens);
        if (m_options.onDelta)
            r.onDelta = [self, i](RequestId, std::string_view text) {
                const auto tokens = self->m_policies[static_cast<std::size_t>(i)]->generated().size();
                self->m_options.onDelta(i, text, static_cast<int>(tokens));
            };
        r.onFinish = [self, i](const SequenceResult& result) { self->onFinished(i, result); };
        m_requests.push_back(std::move(r));
    }
}

std::vector<SequenceRequest> CandidateGroup::takeRequests() { return std::exchange(m_requests, {}); }

void CandidateGroup::submitTo(Scheduler& scheduler)
{
    for (auto& r : takeRequests()) m_ids.push_back(scheduler.submit(std::move(r)));
}

void CandidateGroup::cancel(Scheduler& scheduler)
{
    for (RequestId id : std::exchange(m_ids, {})) scheduler.cancel(id);
}

void CandidateGroup::onFinished(int index, const SequenceResult& result)
{
    const auto i = static_cast<std::size_t>(index);
    CandidateSequence& seq = m_result.sequences[i];
    seq.status = result.status;
    seq.error = result.error;
    seq.metrics = result.metrics;
    if (const auto* limited = dynamic_cast<const LimitedPolicy*>(result.policy.get())) {
        seq.cutShort = limited->cutShort();
    }
    if (result.status == RequestStatus::Done && result.policy) {
        try {
            const auto* limited = dynamic_cast<const LimitedPolicy*>(result.policy.get());
            m_couplets[i] = m_generator.coupletOf(limited ? limited->inner() : *result.policy);
            m_finished[i] = true;
        } catch (const std::exception& e) {
            seq.status = RequestStatus::Failed;
            seq.error = e.what();
        }
    }
    if (seq.status == RequestStatus::Failed && m_result.error.empty())
        m_result.error = seq.error.empty() ? "a candidate failed" : seq.error;
    if (seq.status == RequestStatus::Cancelled) m_result.cancelled = true;
    if (m_options.onSequence) m_options.onSequence(index, result);
    if (--m_remaining > 0) return;
    GroupResult done = rank();
    m_ids.clear();
    if (m_options.onDone) m_options.onDone(std::move(done));
}

// The finished candidates, best first, cut to spec.candidates; each couplet's
// source is found again by its seed and text (the ranking reorders them).
GroupResult CandidateGroup::rank()
{
    std::vector<Couplet> ranked;
    for (std::size_t i = 0; i < m_couplets.size(); ++i)
        if (m_finished[i]) ranked.push_back(m_couplets[i]);
    const auto asked = static_cast<std::size_t>(std::max(1, m_spec.candidates));
    if (m_spec.rerank && !ranked.empty()) {
        m_generator.rerank(m_spec, ranked);
        CoupletScorer::keepBest(ranked, asked);
    } else {
        std::stable_sort(ranked.begin(), ranked.end(), [](const Couplet& a, const Couplet& b) { return a.score > b.score; });
        if (ranked.size() > asked) ranked.resize(asked);
    }
    GroupResult out = std::move(m_result);
    std::vector<bool> used(m_couplets.size(), false);
    for (const Couplet& c : ranked) {
        int source = -1;
        for (std::size_t i = 0; i < m_couplets.size() && source < 0; ++i)
            if (m_finished[i] && !used[i] && m_couplets[i].seed == c.seed && m_couplets[i].upper == c.upper
                && m_couplets[i].lower == c.lower) {
                used[i] = true;
                source = static_cast<int>(i);
            }
        out.sources.push_back(source);
    }
    out.couplets = std::move(ranked);
    return out;
}

} // namespace couplet
