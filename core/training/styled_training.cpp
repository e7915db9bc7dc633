#include "styled_training.h"

#include "style_lexicon.h"

#include <ostream>

namespace couplet {

void takeStyles(const TrainOptions& o, Vocab& vocab, ModelConfig& config)
{
    if (o.styleLexicon.empty()) {
        if (vocab.hasStyles() && !o.initFrom.empty() && std::filesystem::exists(o.initFrom / kStyleFile))
            std::filesystem::copy_file(o.initFrom / kStyleFile, o.outDir / kStyleFile,
                                       std::filesystem::copy_options::overwrite_existing);
        return;
    }
    StyleLexicon::load(o.styleLexicon);
    vocab = vocab.withStyleTokens();
    config.vocabSize = vocab.size();
    if (std::filesystem::absolute(o.styleLexicon) != std::filesystem::absolute(o.outDir / kStyleFile))
        std::filesystem::copy_file(o.styleLexicon, o.outDir / kStyleFile,
                                   std::filesystem::copy_options::overwrite_existing);
}

void labelDataStyles(TrainingData& data, const Vocab& vocab, const std::filesystem::path& modelDir, std::ostream* log)
{
    if (!vocab.hasStyles() || !std::filesystem::exists(modelDir / kStyleFile)) return;
    const auto festive = data.labelStyles(StyleLexicon::load(modelDir / kStyleFile));
    std::size_t modern = 0;
    for (const auto& src : data.sources())
        for (const auto* pairs : {&src.train, &src.valid})
            for (const auto& p : *pairs) modern += p.style == WritingStyle::Modern || p.style == WritingStyle::Festive;
    if (log != nullptr)
        *log << "styles: " << festive << " festive of " << modern << " modern pairs (" << kStyleFile << ")\n";
}

void widenEmbedding(std::map<std::string, torch::Tensor>& tensors, int vocabSize)
{
    auto& wte = tensors.at("wte.weight"); // [vocab, dim]
    const int64_t extra = vocabSize - wte.size(0);
    if (extra <= 0) return;
    const auto mean = wte.to(torch::kFloat32).mean(0, true).to(wte.dtype());
    wte = torch::cat({wte, mean.expand({extra, wte.size(1)})}, 0);
}

TrainingData loadLabelledData(const std::filesystem::path& dataDir, const std::filesystem::path& modelDir)
{
    auto data = TrainingData::load(dataDir);
    labelDataStyles(data, Vocab::load(modelDir / "vocab.txt"), modelDir, nullptr);
    return data;
}

} // namespace couplet
