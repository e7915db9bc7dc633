#include "styled_training.h"

#include "style_lexicon.h"
#include "theme_lexicon.h"

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

void takeExamples(const TrainOptions& o, Vocab& vocab, ModelConfig& config)
{
    const auto kept = o.outDir / "themes.tsv";
    if (o.exampleThemes.empty()) {
        if (vocab.hasExamples() && !o.initFrom.empty() && std::filesystem::exists(o.initFrom / "themes.tsv"))
            std::filesystem::copy_file(o.initFrom / "themes.tsv", kept, std::filesystem::copy_options::overwrite_existing);
        return;
    }
    ThemeLexicon::load(o.exampleThemes); // names a bad lexicon before anything changes
    vocab = vocab.withExampleToken();
    config.vocabSize = vocab.size();
    if (std::filesystem::absolute(o.exampleThemes) != std::filesystem::absolute(kept))
        std::filesystem::copy_file(o.exampleThemes, kept, std::filesystem::copy_options::overwrite_existing);
}

ExampleIndex buildExampleIndex(const TrainingData& data, const ThemeLexicon& lexicon, std::size_t perTheme,
                               std::uint64_t seed)
{
    std::vector<ExamplePair> pairs;
    for (const auto& src : data.sources())
        if (src.name == "modern")
            for (const auto& p : src.train) pairs.push_back({p.upper, p.lower});
    std::mt19937_64 rng(seed);
    return ExampleIndex(std::move(pairs), lexicon).sample(perTheme, lexicon, rng);
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
