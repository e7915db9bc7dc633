#pragma once

#include <filesystem>

namespace couplet {

// Shape of the Transformer. Stored as config.json beside the weights.
struct ModelConfig {
    int vocabSize = 0;
    int dim = 256;        // model width
    int layers = 4;
    int heads = 4;        // dim / heads = head width
    int mlpHidden = 1024; // feed-forward width
    int maxLen = 96;      // positions, i.e. longest sequence in tokens
    float dropout = 0.1f; // training only
    // Partner embeddings (partner_track.h): while the 下联 is written, the input
    // at the position that predicts its character i also gets P · wte[上联_i],
    // P a dim x dim projection ("partner.weight"). config.json says
    // "partners": true; a model without the key has no P and runs as before.
    bool partners = false;

    int headDim() const { return dim / heads; }
    // Throws std::invalid_argument naming the first inconsistent field.
    void validate() const;

    static ModelConfig load(const std::filesystem::path& path);
    void save(const std::filesystem::path& path) const;
};

} // namespace couplet
