#pragma once

#include <filesystem>
#include <string>

namespace couplet {

// What GET /v1/models says about the loaded model, from its folder's
// MODEL_CARD.md: the title line and the "| size | … |" row.
struct ModelCard {
    std::string id;    // the folder name, e.g. "default"
    std::string name;  // e.g. "Couplet Studio default model"
    std::string size;  // e.g. "5.04 M parameters: dim 256, 4 layers, …"

    // Falls back to the folder name and an empty size when there is no card.
    static ModelCard read(const std::filesystem::path& modelDir);
};

} // namespace couplet
