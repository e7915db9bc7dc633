#include "shipped_samples.h"

#include "couplet_model_generator.h"
#include "generate.h"
#include "scheduler.h"

namespace couplet::testing {

std::shared_ptr<const CoupletModel> shippedModel()
{
    static auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    return model;
}

std::vector<Couplet> sampleShipped(GenerationSpec spec, int n)
{
    const CoupletModelGenerator generator(shippedModel());
    auto decoder = generator.makeDecoder();
    Scheduler scheduler(*decoder, SchedulerSettings{32, 0, 4096});
    std::vector<Couplet> out(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        spec.sampling.seed = static_cast<std::uint64_t>(i + 1);
        SequenceRequest r;
        r.policy = generator.makePolicy(spec, 0);
        const TokenPolicy* policy = r.policy.get();
        r.onFinish = [&out, &generator, policy, i](const SequenceResult&) {
            out[static_cast<std::size_t>(i)] = generator.coupletOf(*policy);
        };
        scheduler.submit(std::move(r));
    }
    runToCompletion(scheduler);
    return out;
}

} // namespace couplet::testing
