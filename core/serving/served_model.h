#pragma once

#include "generation_spec.h"
#include "model_card.h"
#include "token_policy.h"

#include <functional>
#include <memory>
#include <string>

namespace couplet {

// What the serving engine needs of a model, without depending on libtorch:
// its card, its checks and its per-candidate policies.
struct EngineModel {
    ModelCard card;
    // Empty when the spec can be generated, else why not.
    std::function<std::string(const GenerationSpec&)> validate;
    // The policy for candidate `index` of a validated spec.
    std::function<std::unique_ptr<TokenPolicy>(const GenerationSpec&, int index)> makePolicy;
};

// For CoupletModel (or anything with its validate/makePolicy), instantiated
// where the model's header is included.
template <typename Model>
EngineModel engineModelOf(std::shared_ptr<const Model> model, ModelCard card)
{
    EngineModel m;
    m.card = std::move(card);
    m.validate = [model](const GenerationSpec& spec) { return model->validate(spec); };
    m.makePolicy = [model](const GenerationSpec& spec, int index) { return model->makePolicy(spec, index); };
    return m;
}

} // namespace couplet
