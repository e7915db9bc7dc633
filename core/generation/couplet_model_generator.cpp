#include "couplet_model_generator.h"

#include "couplet_policy.h"
#include "script_converter.h"
#include "simplified_forms.h"

#include <torch/torch.h>

#include <cstdio>
#include <utility>

namespace couplet {

CoupletModelGenerator::CoupletModelGenerator(std::shared_ptr<const CoupletModel> model) : m_model(std::move(model))
{
    try {
        m_nonSimplified = nonSimplifiedTokens(m_model->vocab());
    } catch (const ScriptError& e) {
        // Generation goes on without the filter; the Traditional output says the same when asked for.
        static bool told = false;
        if (!std::exchange(told, true)) std::fprintf(stderr, "couplet: %s\n", e.what());
    }
}

std::unique_ptr<TokenPolicy> CoupletModelGenerator::makePolicy(const GenerationSpec& spec, int index) const
{
    auto policy = m_model->makePolicy(spec, index);
    if (spec.script == OutputScript::Simplified && m_nonSimplified)
        if (auto* couplet = dynamic_cast<CoupletPolicy*>(policy.get())) couplet->keepOut(*m_nonSimplified);
    return policy;
}

CoupletModelGenerator CoupletModelGenerator::of(const CoupletModel& model)
{
    // An aliasing pointer that owns nothing: the caller keeps the model.
    return CoupletModelGenerator(std::shared_ptr<const CoupletModel>(std::shared_ptr<const void>(), &model));
}

void CoupletModelGenerator::setThreads(int threads)
{
    if (threads > 0) torch::set_num_threads(threads);
}

} // namespace couplet
