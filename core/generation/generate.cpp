#include "generate.h"

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

std::vector<Couplet> generateCouplets(const CoupletModel& model, Decoder& decoder, const GenerationSpec& spec,
                                      const CandidateDelta& onDelta)
{
    if (auto e = model.validate(spec); !e.empty()) throw std::invalid_argument(e);
    SchedulerSettings settings;
    settings.maxBatch = std::max(1, spec.candidates);
    settings.maxWaitMs = 0;
    Scheduler scheduler(decoder, settings);
    std::vector<Couplet> out(static_cast<std::size_t>(spec.candidates));
    std::vector<std::string> errors;
    for (int i = 0; i < spec.candidates; ++i) {
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
    std::stable_sort(out.begin(), out.end(), [](const Couplet& a, const Couplet& b) { return a.score > b.score; });
    return out;
}

} // namespace couplet
