// The model id a producer stamps on its rows and a worker checks: the weights
// and every table that decides the couplet (a worker without the producer's
// bigrams.tsv writes other couplets, so it must not take the rows).
#include "model_id.h"

#include <check.h>

#include <filesystem>
#include <fstream>

using namespace couplet;

namespace {

std::filesystem::path folder(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / ("couplet-test-model-id-" + name) / "default";
    std::filesystem::remove_all(dir.parent_path());
    std::filesystem::create_directories(dir);
    for (const char* f : {"config.json", "vocab.txt", "model.safetensors"}) std::ofstream(dir / f) << f << " bytes\n";
    return dir;
}

} // namespace

COUPLET_TEST(theIdNamesTheFolderAndChangesWithEveryTableThatDecidesTheCouplet)
{
    const auto dir = folder("tables");
    const std::string plain = cluster::modelIdOf(dir);
    CHECK_EQ(plain.substr(0, 8), std::string("default@"));
    CHECK_EQ(cluster::modelIdOf(dir), plain); // the same bytes, the same id

    std::ofstream(dir / "bigrams.tsv") << "春风\t3\n";
    const std::string withBigrams = cluster::modelIdOf(dir);
    CHECK(withBigrams != plain);
    std::ofstream(dir / "bigrams.tsv") << "春风\t4\n";
    CHECK(cluster::modelIdOf(dir) != withBigrams);

    // The same bytes under another table's name are another folder.
    std::filesystem::rename(dir / "bigrams.tsv", dir / "align.tsv");
    CHECK(cluster::modelIdOf(dir) != plain);
    CHECK(cluster::modelIdOf(dir) != withBigrams);

    std::ofstream(dir / "words.tsv") << "春风\t10\tn\n";
    const std::string withWords = cluster::modelIdOf(dir);
    std::ofstream(dir / "judge.bin") << "judge";
    CHECK(cluster::modelIdOf(dir) != withWords);
    std::filesystem::remove_all(dir.parent_path());
}

COUPLET_TEST(aFolderWithoutWeightsIsRefusedByName)
{
    const auto dir = folder("missing");
    std::filesystem::remove(dir / "model.safetensors");
    CHECK_THROWS(cluster::modelIdOf(dir), "model.safetensors is missing");
    std::filesystem::remove_all(dir.parent_path());
}
