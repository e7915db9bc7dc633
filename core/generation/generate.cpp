#include "generate.h"

#include "couplet_model_generator.h"

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

std::vector<Couplet> generateCouplets(const CoupletGenerator& generator, Decoder& decoder, const GenerationSpec& spec,
                                      const CandidateDelta& onDelta)
{
    CandidateGroupOptions options;
    if (onDelta) options.onDelta = [&onDelta](int index, std::string_view text, int) { onDelta(index, text); };
    GroupResult result;
    options.onDone = [&result](GroupResult r) { result = std::move(r); };
    auto group = CandidateGroup::create(generator, spec, std::move(options));
    SchedulerSettings settings;
    settings.maxBatch = group->sampled();
    settings.maxWaitMs = 0;
    Scheduler scheduler(decoder, settings);
    group->submitTo(scheduler);
    group.reset();
    runToCompletion(scheduler);
    if (!result.error.empty()) throw std::runtime_error(result.error);
    return std::move(result.couplets);
}

std::vector<Couplet> generateCouplets(const CoupletModel& model, Decoder& decoder, const GenerationSpec& spec,
                                      const CandidateDelta& onDelta)
{
    return generateCouplets(CoupletModelGenerator::of(model), decoder, spec, onDelta);
}

} // namespace couplet
