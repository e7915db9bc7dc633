#pragma once

#include "engine_backend.h"

namespace couplet {

// The BackendLoader for the trained CoupletModel (links couplet_model).
std::shared_ptr<EngineBackend> loadModelBackend(const std::filesystem::path& dir,
                                                const DeviceOptions& options);

} // namespace couplet
