#include "tiny_model.h"

#include "safetensors.h"
#include "vocab.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <stdexcept>

namespace couplet::testing {
namespace {

// Tone classes of the vocabulary (from the shipped tones.tsv), so that the
// 上联-ends-on-仄 rule can be tested.
constexpr const char* kLevel = "春福年新风花山天人家门财金龙吉祥如安康平兴和一生千秋光明开临迎来丰登堂红心成"
                               "星高辞更鸿当头合欢国民强梅竹石出东长诗书传琴棋";
constexpr const char* kOblique = "喜月水地玉凤意寿万事旺顺五四海大日百岁泰到庆满想照步旧象运乐富户瑞雪绿报小落"
                                 "上送暖兆贵秀赐养";
constexpr const char* kHengpi = "五福临门\t10\tstock\n万象更新\t10\tstock\n吉星高照\t9\tstock\n"
                                "国泰民安\t8\tidiom\n辞旧迎新\t9\tstock\n花开富贵\t8\tstock\n";

std::vector<char32_t> vocabularyCharacters()
{
    const std::u32string han = tinyHanCharacters();
    std::vector<char32_t> out(han.begin(), han.end());
    out.push_back(U'，');
    return out;
}

void writeTones(const std::filesystem::path& path)
{
    std::ofstream out(path, std::ios::binary);
    for (const auto& c : utf8::characters(kLevel)) out << c << "\tP\n";
    for (const auto& c : utf8::characters(kOblique)) out << c << "\tZ\n";
}

} // namespace

std::u32string tinyHanCharacters()
{
    std::u32string out;
    for (char32_t c : utf8::decode(kTinyCharacters))
        if (out.find(c) == std::u32string::npos) out.push_back(c);
    return out;
}

void writeTinyCorpus(const std::filesystem::path& file, int pairs, unsigned seed)
{
    const std::u32string chars = tinyHanCharacters();
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::size_t> pick(0, chars.size() - 1);
    std::ofstream out(file, std::ios::binary);
    for (int i = 0; i < pairs; ++i) {
        std::u32string up, down;
        for (int k = 0; k < 5; ++k) {
            up.push_back(chars[pick(rng)]);
            down.push_back(chars[pick(rng)]);
        }
        out << utf8::encode(up) << '\t' << utf8::encode(down) << '\n';
    }
}

const char* const kTinyCharacters =
    "春福年新喜风花月山水天地人家门财金玉龙凤吉祥如意安康寿平万事兴旺和顺五四海一生大日千秋百岁"
    "光明开泰临迎来到庆丰登满堂红心想成星高照步辞旧更象鸿运当头合欢乐国民富强户瑞雪梅绿竹报小落"
    "石出上东送暖兆贵秀赐诗书传琴棋养长";

std::filesystem::path writeTinyDataFolder(const std::filesystem::path& dir, int pairs)
{
    std::filesystem::create_directories(dir / "couplets");
    std::filesystem::create_directories(dir / "idioms");
    std::ofstream(dir / "idioms" / "idioms-pinyin.json") << "[]\n";
    writeTinyCorpus(dir / "couplets" / "modern.tsv", pairs, 5);
    return dir;
}

std::filesystem::path freshTempDir(const std::string& name)
{
    std::string pattern = (std::filesystem::temp_directory_path() / ("couplet-" + name + "-XXXXXX")).string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    return pattern;
}

TrainOptions tinyContinuation(const std::filesystem::path& data, const std::filesystem::path& init,
                              const std::filesystem::path& out, int steps)
{
    TrainOptions o;
    o.dataDir = data;
    o.outDir = out;
    o.initFrom = init;
    o.batchSize = 4;
    o.steps = steps;
    o.warmupSteps = 1;
    o.threads = 1;
    o.logEvery = 1;
    o.evalEvery = 1000;
    o.saveEvery = 1000;
    return o;
}

ModelConfig tinyConfig(int vocabSize)
{
    ModelConfig config;
    config.vocabSize = vocabSize;
    config.dim = 32;
    config.layers = 2;
    config.heads = 2;
    config.mlpHidden = 64;
    config.maxLen = 96;
    config.dropout = 0;
    return config;
}

std::filesystem::path writeTinyModel(const std::filesystem::path& dir, int seed, Lm* lm)
{
    std::filesystem::create_directories(dir);
    const Vocab vocab(vocabularyCharacters());
    Lm random{nullptr};
    if (!lm) {
        torch::manual_seed(static_cast<std::uint64_t>(seed));
        random = Lm(tinyConfig(vocab.size()));
        lm = &random;
    }
    safetensors::TensorMap weights;
    for (const auto& p : (*lm)->named_parameters()) weights[p.key()] = p.value().detach();
    safetensors::save(dir / "model.safetensors", weights);
    vocab.save(dir / "vocab.txt");
    (*lm)->config().save(dir / "config.json");
    writeTones(dir / "tones.tsv");
    std::ofstream(dir / "hengpi.txt", std::ios::binary) << kHengpi;
    return dir;
}

} // namespace couplet::testing
