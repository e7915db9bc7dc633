#pragma once

#include "couplet_generator.h"
#include "device_options.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace couplet {

// A loaded model as other threads see it; empty while none is loaded.
struct LoadedModel {
    std::shared_ptr<const CoupletGenerator> generator;
    std::string dir;
};

// Loads a model folder; throws (e.g. ModelLoadError) on failure. The engine
// needs no libtorch: the app passes loadModelBackend (model_backend.h), tests a fake.
using BackendLoader = std::function<std::shared_ptr<CoupletGenerator>(const std::filesystem::path& dir,
                                                                      const DeviceOptions& options)>;

} // namespace couplet
