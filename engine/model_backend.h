#pragma once

#include "loaded_model.h"

namespace couplet {

// The BackendLoader for the trained CoupletModel (links couplet_model):
// a CoupletModelGenerator over the loaded folder.
std::shared_ptr<CoupletGenerator> loadModelBackend(const std::filesystem::path& dir, const DeviceOptions& options);

} // namespace couplet
