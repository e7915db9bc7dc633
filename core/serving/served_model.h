#pragma once

#include "couplet_generator.h"
#include "model_card.h"

#include <memory>

namespace couplet {

// The model a server answers with: its card (the name requests and
// responses use) and the generator its requests are checked against and
// written by.
struct ServedModel {
    ModelCard card;
    std::shared_ptr<const CoupletGenerator> generator;
};

} // namespace couplet
