#pragma once

#include "args.h"

#include "couplet_model.h"

#include <memory>

namespace couplet::cli {

// --model PATH, --device cpu|cuda|auto, --threads N, --fp32: loads the model
// or throws ModelLoadError (reported by main with the path and the reason).
std::shared_ptr<const CoupletModel> loadModel(Args& args);
const char* modelOptionsHelp();

} // namespace couplet::cli
