#pragma once

#include "generation_spec.h"
#include "token_policy.h"

#include <functional>
#include <memory>
#include <string>

namespace couplet {

// What turning prompts into couplets needs of a model: the three calls that
// CoupletModel and the engine's EngineBackend both offer. Held as functions
// so that this layer needs neither libtorch nor Qt.
struct CoupletSource {
    std::function<std::string(const GenerationSpec&)> validate;
    std::function<std::unique_ptr<TokenPolicy>(const GenerationSpec&, int index)> makePolicy;
    std::function<Couplet(const TokenPolicy&)> coupletOf;

    // Calls `model`, which must outlive the source.
    template <class Model>
    static CoupletSource of(const Model& model)
    {
        return {[&model](const GenerationSpec& spec) { return model.validate(spec); },
                [&model](const GenerationSpec& spec, int index) { return model.makePolicy(spec, index); },
                [&model](const TokenPolicy& policy) { return model.coupletOf(policy); }};
    }
};

} // namespace couplet
