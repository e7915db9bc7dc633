#include "tiny_model.h"

#include "couplet_model.h"
#include "safetensors.h"
#include "vocab.h"

#include <check.h>

#include <fstream>

using namespace couplet;

COUPLET_TEST(vocabularyRoundTripsText)
{
    const Vocab vocab(std::vector<char32_t>{U'春', U'福', U'，', U'门'});
    CHECK_EQ(vocab.decode(vocab.encode("春福，门")), std::string("春福，门"));
    const auto unknown = vocab.encode("龍");
    CHECK_EQ(unknown.size(), std::size_t(1));
    CHECK_EQ(unknown[0], tok::kUnk);
    CHECK(vocab.isPunctuation(vocab.id(U'，')));
    CHECK(vocab.isHan(vocab.id(U'春')));
    CHECK(!vocab.isCharacter(tok::kEos));
    CHECK_EQ(utf8::encode(vocab.unknownCharacters("春龍福龍x")), std::string("龍x"));

    const auto dir = testing::freshTempDir("vocab");
    vocab.save(dir / "vocab.txt");
    const auto loaded = Vocab::load(dir / "vocab.txt");
    CHECK_EQ(loaded.size(), vocab.size());
    for (int id = 0; id < vocab.size(); ++id) CHECK_EQ(loaded.piece(id), vocab.piece(id));
}

COUPLET_TEST(vocabularyFileErrorsNameTheLine)
{
    const auto dir = testing::freshTempDir("vocab-bad");
    {
        std::ofstream out(dir / "v.txt");
        out << "<pad>\n<unk>\n<bos>\n<oops>\n";
    }
    CHECK_THROWS(Vocab::load(dir / "v.txt"), "line 4");
    CHECK_THROWS(Vocab::load(dir / "missing.txt"), "cannot open");
}

COUPLET_TEST(safetensorsRoundTripKeepsValuesAndDtypes)
{
    const auto dir = testing::freshTempDir("st");
    safetensors::TensorMap in;
    in["a.weight"] = torch::randn({3, 5});
    in["b"] = torch::randn({7}).to(torch::kFloat16);
    in["c"] = torch::arange(6, torch::kLong).view({2, 3});
    safetensors::save(dir / "w.safetensors", in, {{"step", "42"}});
    std::map<std::string, std::string> meta;
    const auto out = safetensors::load(dir / "w.safetensors", &meta);
    CHECK_EQ(out.size(), in.size());
    for (const auto& [name, t] : in) {
        CHECK(out.at(name).scalar_type() == t.scalar_type());
        CHECK(torch::equal(out.at(name), t));
    }
    CHECK_EQ(meta.at("step"), std::string("42"));
}

COUPLET_TEST(safetensorsReportsCorruptFiles)
{
    const auto dir = testing::freshTempDir("st-bad");
    safetensors::save(dir / "w.safetensors", {{"x", torch::randn({64, 64})}});
    const auto size = std::filesystem::file_size(dir / "w.safetensors");
    std::filesystem::copy_file(dir / "w.safetensors", dir / "cut.safetensors");
    std::filesystem::resize_file(dir / "cut.safetensors", size - 100);
    CHECK_THROWS(safetensors::load(dir / "cut.safetensors"), "outside the file");
    {
        std::ofstream out(dir / "junk.safetensors", std::ios::binary);
        out << "this is not a model at all, just text";
    }
    CHECK_THROWS(safetensors::load(dir / "junk.safetensors"), "exceeds the file size");
    {
        std::ofstream out(dir / "json.safetensors", std::ios::binary);
        const std::string header = "{not json}";
        const char len[8] = {static_cast<char>(header.size()), 0, 0, 0, 0, 0, 0, 0};
        out.write(len, 8);
        out << header;
    }
    CHECK_THROWS(safetensors::load(dir / "json.safetensors"), "not valid JSON");
    CHECK_THROWS(safetensors::load(dir / "none.safetensors"), "none.safetensors: cannot open");
}

COUPLET_TEST(safetensorsMetadataIsReadFromTheHeaderAlone)
{
    const auto dir = testing::freshTempDir("st-meta");
    safetensors::save(dir / "w.safetensors", {{"x", torch::randn({64, 64})}}, {{"step", "7"}, {"by", "test"}});
    const auto meta = safetensors::loadMetadata(dir / "w.safetensors");
    CHECK_EQ(meta.size(), std::size_t(2));
    CHECK_EQ(meta.at("step"), std::string("7"));
    CHECK_EQ(meta.at("by"), std::string("test"));
    // Only the header is read: a file cut inside its tensor bytes still gives its
    // metadata, while load() refuses it.
    std::filesystem::resize_file(dir / "w.safetensors", std::filesystem::file_size(dir / "w.safetensors") - 100);
    CHECK_EQ(safetensors::loadMetadata(dir / "w.safetensors").at("step"), std::string("7"));
    CHECK_THROWS(safetensors::load(dir / "w.safetensors"), "outside the file");

    safetensors::save(dir / "bare.safetensors", {{"x", torch::zeros({2})}});
    CHECK(safetensors::loadMetadata(dir / "bare.safetensors").empty());
    {
        std::ofstream out(dir / "junk.safetensors", std::ios::binary);
        out << "this is not a model at all, just text";
    }
    CHECK_THROWS(safetensors::loadMetadata(dir / "junk.safetensors"), "exceeds the file size");
    CHECK_THROWS(safetensors::loadMetadata(dir / "none.safetensors"), "none.safetensors: cannot open");
}

namespace {

// A copy of the model folder whose config.json asks for wider layers than its weights have.
std::filesystem::path copyWithWiderConfig(const std::filesystem::path& dir, const std::string& name)
{
    const auto copy = dir.parent_path() / name;
    std::filesystem::copy(dir, copy);
    auto config = ModelConfig::load(copy / "config.json");
    config.dim = 64;
    config.mlpHidden = 128;
    config.save(copy / "config.json");
    return copy;
}

} // namespace

COUPLET_TEST(modelLoadErrorsNameFileAndReason)
{
    const auto dir = testing::writeTinyModel(testing::freshTempDir("load") / "m");
    CHECK(CoupletModel::load(dir) != nullptr);

    const auto cut = dir.parent_path() / "cut";
    std::filesystem::copy(dir, cut);
    std::filesystem::resize_file(cut / "model.safetensors", 1000);
    CHECK_THROWS(CoupletModel::load(cut), "model.safetensors");

    const auto wrongVocab = dir.parent_path() / "vocab";
    std::filesystem::copy(dir, wrongVocab);
    {
        std::ofstream out(wrongVocab / "vocab.txt", std::ios::app);
        out << "龍\n";
    }
    CHECK_THROWS(CoupletModel::load(wrongVocab), "config.json says");

    CHECK_THROWS(CoupletModel::load(copyWithWiderConfig(dir, "shape")), "has shape");

    CHECK_THROWS(CoupletModel::load(dir.parent_path() / "absent"), "no such model folder");
    std::filesystem::remove(cut / "config.json");
    CHECK_THROWS(CoupletModel::load(cut), "config.json");
}

// acrostic.safetensors: the weights 藏头 prompts run on, some or all of the
// model's tensors. A folder with it routes; a wrong tensor is refused, naming the file.
COUPLET_TEST(acrosticWeightsAreLoadedOrRefusedNamingTheFile)
{
    const auto dir = testing::writeTinyModel(testing::freshTempDir("acrostic") / "m");
    CHECK(!CoupletModel::load(dir)->hasAcrosticWeights());
    const auto tensors = safetensors::load(dir / "model.safetensors");
    safetensors::TensorMap some;
    for (const auto& [name, t] : tensors)
        if (name != "wte.weight") some[name] = t * 1.5; // other weights, the embedding shared
    const auto routed = dir.parent_path() / "routed";
    std::filesystem::copy(dir, routed);
    safetensors::save(routed / kAcrosticWeightsFile, some);
    CHECK(CoupletModel::load(routed)->hasAcrosticWeights());

    const auto unknown = dir.parent_path() / "unknown";
    std::filesystem::copy(dir, unknown);
    safetensors::TensorMap bad{{"blocks.99.attn.weight", torch::zeros({2, 2})}};
    safetensors::save(unknown / kAcrosticWeightsFile, bad);
    CHECK_THROWS(CoupletModel::load(unknown), "acrostic.safetensors: unexpected tensor 'blocks.99.attn.weight'");

    const auto shape = dir.parent_path() / "shape-acrostic";
    std::filesystem::copy(dir, shape);
    safetensors::TensorMap wrong{{"wte.weight", torch::zeros({3, 3})}};
    safetensors::save(shape / kAcrosticWeightsFile, wrong);
    CHECK_THROWS(CoupletModel::load(shape), "acrostic.safetensors: tensor 'wte.weight' has shape");
}

// The file is named once ("cannot load model: F: tensor ..."), and a device
// that cannot be used is a ModelLoadError like any other load failure.
COUPLET_TEST(modelLoadErrorsNameTheFileOnceAndCoverTheDevice)
{
    const auto dir = testing::writeTinyModel(testing::freshTempDir("load-once") / "m");
    const auto shape = copyWithWiderConfig(dir, "shape");
    const std::string file = (shape / "model.safetensors").string();
    try {
        CoupletModel::load(shape);
        CHECK(false);
    } catch (const ModelLoadError& e) {
        const std::string message = e.what();
        CHECK_EQ(message.find(file), message.rfind(file));
        CHECK(message.find("cannot load model: " + file + ": tensor") == 0);
    }

    DeviceOptions tpu;
    tpu.device = "tpu";
    try {
        CoupletModel::load(dir, tpu);
        CHECK(false);
    } catch (const ModelLoadError& e) {
        CHECK(std::string(e.what()).find("unknown device 'tpu'") != std::string::npos);
        CHECK_EQ(e.path(), dir);
    }
}

COUPLET_TEST(validateExplainsBadPrompts)
{
    const auto model = CoupletModel::load(testing::writeTinyModel(testing::freshTempDir("validate") / "m"));
    GenerationSpec ok;
    ok.keywords = "春 福";
    CHECK_EQ(model->validate(ok), std::string());
    auto bad = ok;
    bad.keywords = "";
    CHECK(model->validate(bad).find("empty") != std::string::npos);
    bad.keywords = "hello";
    CHECK(model->validate(bad).find("Chinese") != std::string::npos);
    CHECK(model->validate(bad).find("\"h\", \"e\", \"l\", \"o\" (the first at character 1 of 5)") != std::string::npos);
    // A 上联 pasted with a zero-width space in it: the message shows what cannot be seen.
    bad = ok;
    bad.mode = PromptMode::Upper;
    bad.upper = "春风\u200b送暖";
    CHECK(model->validate(bad).find("not allowed: U+200B zero-width space (the first at character 3 of 5)") !=
          std::string::npos);
    bad = ok;
    bad.keywords = "龘";
    CHECK(model->validate(bad).find("does not know: 龘") != std::string::npos);
    bad.keywords = "春春春春春春春春春春春春春春春春春春春春";
    CHECK(model->validate(bad).find("too long") != std::string::npos);
    bad = ok;
    bad.length = 99;
    CHECK(model->validate(bad).find("length") != std::string::npos);
    bad = ok;
    bad.hengpi = "春福";
    CHECK(model->validate(bad).find("four characters") != std::string::npos);
    bad = ok;
    bad.mode = PromptMode::Upper;
    bad.upper = "，春风";
    CHECK(model->validate(bad).find("punctuation") != std::string::npos);
    bad.upper = "\xE6\x98";
    CHECK(model->validate(bad).find("UTF-8") != std::string::npos);
    bad = ok;
    bad.sampling.temperature = 0;
    CHECK(model->validate(bad).find("temperature") != std::string::npos);
    CHECK_THROWS(model->makePolicy(bad), "temperature");
}
