#include "model_config.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>

namespace couplet {

namespace {
constexpr int kFormatVersion = 1;
}

void ModelConfig::validate() const
{
    auto need = [](bool ok, const char* what) {
        if (!ok) throw std::invalid_argument(what);
    };
    need(vocabSize > 0, "vocab_size must be positive");
    need(dim > 0 && heads > 0 && dim % heads == 0, "dim must be a positive multiple of heads");
    need(layers > 0, "layers must be positive");
    need(mlpHidden > 0, "mlp_hidden must be positive");
    need(maxLen >= 16 && maxLen <= 4096, "max_len must be between 16 and 4096");
    need(dropout >= 0 && dropout < 1, "dropout must be in [0, 1)");
}

ModelConfig ModelConfig::load(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    ModelConfig c;
    try {
        const auto j = nlohmann::json::parse(in);
        if (j.value("format_version", 0) != kFormatVersion)
            throw std::runtime_error("unsupported format_version " + j.value("format_version", nlohmann::json()).dump());
        c.vocabSize = j.at("vocab_size").get<int>();
        c.dim = j.at("dim").get<int>();
        c.layers = j.at("layers").get<int>();
        c.heads = j.at("heads").get<int>();
        c.mlpHidden = j.at("mlp_hidden").get<int>();
        c.maxLen = j.at("max_len").get<int>();
        c.dropout = j.value("dropout", 0.0f);
        c.partners = j.value("partners", false);
        c.validate();
    } catch (const std::exception& e) {
        throw std::runtime_error(path.string() + ": " + e.what());
    }
    return c;
}

void ModelConfig::save(const std::filesystem::path& path) const
{
    nlohmann::json j = {{"format_version", kFormatVersion},
                              {"architecture", "couplet-decoder (pre-norm, learned positions, tied embeddings)"},
                              {"vocab_size", vocabSize},
                              {"dim", dim},
                              {"layers", layers},
                              {"heads", heads},
                              {"mlp_hidden", mlpHidden},
                              {"max_len", maxLen},
                              {"dropout", dropout}};
    if (partners) j["partners"] = true; // without partners, the file reads as before the key existed
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    out << j.dump(2) << '\n';
}

} // namespace couplet
