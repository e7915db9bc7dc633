#include "generate.h"

#include "couplet_scorer.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace couplet {

void runToCompletion(Scheduler& scheduler)
{
    while (scheduler.hasWork()) {
        if (const int wait = scheduler.msUntilReady(); wait > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(wait));
        scheduler.step();
    }
}

int sampledCandidates(const GenerationSpec& spec)
{
    const int asked = std::max(1, spec.candidates);
    // Greedy candidates are all the same couplet: nothing to choose from.
    if (!spec.rerank || spec.sampling.greedy) return asked;
    return std::max(asked, std::min(kMaxSampledCandidates, kRerankFactor * asked));
}

std::vector<Couplet> generateCouplets(const CoupletModel& model, Decoder& decoder, const GenerationSpec& spec,
                                      const CandidateDelta& onDelta)
{
    if (auto e = model.validate(spec); !e.empty()) throw std::invalid_argument(e);
    const int sampled = sampledCandidates(spec);
    SchedulerSettings settings;
    settings.maxBatch = sampled;
    settings.maxWaitMs = 0;
    Scheduler scheduler(decoder, settings);
    std::vector<Couplet> out(static_cast<std::size_t>(sampled));
    std::vector<std::string> errors;
    for (int i = 0; i < sampled; ++i) {
        SequenceRequest r;
        r.policy = model.makePolicy(spec, i);
        if (onDelta) r.onDelta = [&onDelta, i](RequestId, std::string_view d) { onDelta(i, d); };
        r.onFinish = [&, i](const SequenceResult& result) {
            if (result.status != RequestStatus::Done) errors.push_back(result.error);
            else out[static_cast<std::size_t>(i)] = CoupletModel::coupletOf(*result.policy);
        };
        scheduler.submit(std::move(r));
    }
    runToCompletion(scheduler);
    if (!errors.empty()) throw std::runtime_error(errors.front());
    const auto asked = static_cast<std::size_t>(std::max(1, spec.candidates));
    if (!spec.rerank) {
        std::stable_sort(out.begin(), out.end(), [](const Couplet& a, const Couplet& b) { return a.score > b.score; });
        return out;
    }
    model.rerank(spec, out);
    CoupletScorer::keepBest(out, asked);
    return out;
}

} // namespace couplet
