#include "cluster_rig.h"

#include "check.h"
#include "cli_under_test.h"
#include "csv_reader.h"
#include "tiny_model.h"
#include "wait_for.h"

#include "vocab.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace couplet::test {

ClusterRig::ClusterRig(const std::string& name)
{
    RedisServer::skipUnlessInstalled();
    m_cli = couplet::testing::cliUnderTest();
    m_dir = couplet::testing::freshTempDir("cluster-" + name);
    m_redis = std::make_unique<RedisServer>(m_dir / "redis");
    m_client = std::make_unique<RedisConnection>(RedisUrl::parse(m_redis->url()), RedisTimeouts{},
                                                 [](const std::string&) {});
}

ClusterRig::~ClusterRig()
{
    m_client.reset();
    m_redis.reset();
    // Kept when COUPLET_KEEP_TEST_DIR is set, to read the logs.
    if (!std::getenv("COUPLET_KEEP_TEST_DIR")) {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }
}

std::filesystem::path ClusterRig::writeModel(const std::string& folder, int seed, int maxLen)
{
    const auto dir = m_dir / folder;
    if (maxLen == 0) return couplet::testing::writeTinyModel(dir, seed);
    // The tiny model's vocabulary, with a shorter context than the tiny config's.
    const auto base = couplet::testing::writeTinyModel(m_dir / (folder + "-base"), seed);
    ModelConfig config = couplet::testing::tinyConfig(Vocab::load(base / "vocab.txt").size());
    config.maxLen = maxLen;
    torch::manual_seed(static_cast<std::uint64_t>(seed));
    Lm lm(config);
    return couplet::testing::writeTinyModel(dir, seed, &lm);
}

std::filesystem::path ClusterRig::writeInput(int rows, const std::map<int, int>& lengths)
{
    static const char* const kKeywords[] = {"春风", "福", "新年", "龙凤", "山水", "平安"};
    std::string text = "id,关键词,字数\n";
    for (int i = 1; i <= rows; ++i) {
        const auto it = lengths.find(i);
        text += "r" + std::to_string(i) + "," + kKeywords[i % 6] + ","
            + std::to_string(it == lengths.end() ? 7 : it->second) + "\n";
    }
    const auto path = m_dir / "in.csv";
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

std::unique_ptr<ChildProcess> ClusterRig::startWorker(const std::string& name, const std::filesystem::path& model,
                                                      const std::vector<std::string>& extra)
{
    std::vector<std::string> args{m_cli, "worker", "--redis", m_redis->url(), "--name", name, "--model",
                                  model.string(), "--device", "cpu", "--threads", "1", "--max-batch", "4",
                                  "--claim-idle-ms", "2000", "--heartbeat-ttl", "3"};
    args.insert(args.end(), extra.begin(), extra.end());
    return std::make_unique<ChildProcess>(args, m_dir / (name + ".log"));
}

std::unique_ptr<ChildProcess> ClusterRig::startProducer(const std::filesystem::path& model, bool resume,
                                                        const std::vector<std::string>& extra)
{
    std::vector<std::string> args{m_cli, "batch", (m_dir / "in.csv").string(), "-o", output().string(),
                                  "--redis", m_redis->url(), "--model", model.string(), "--journal",
                                  (m_dir / "jobs.sqlite").string(), "--window", "16", "--seed", "7"};
    if (resume) args.push_back("--resume");
    args.insert(args.end(), extra.begin(), extra.end());
    return std::make_unique<ChildProcess>(args, m_dir / "producer.log");
}

std::string ClusterRig::clusterStatusJson()
{
    const auto log = m_dir / "status.json";
    std::filesystem::remove(log);
    ChildProcess status({m_cli, "cluster", "status", "--redis", m_redis->url(), "--json"}, log);
    CHECK_EQ(status.wait(), 0);
    return status.logText();
}

std::vector<OutputRow> ClusterRig::readOutput() const
{
    CsvReader reader(output());
    const auto header = reader.header();
    std::vector<OutputRow> rows;
    CsvRecord record;
    while (reader.next(record)) {
        OutputRow row;
        for (std::size_t c = 0; c < header.size() && c < record.fields.size(); ++c)
            row.cells[header[c]] = record.fields[c];
        rows.push_back(std::move(row));
    }
    return rows;
}

int ClusterRig::rowsOnDisk() const
{
    std::ifstream in(output(), std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return std::max(0, countOf(text, "\r\n") - 1);
}

std::string ClusterRig::jobKey()
{
    std::string key;
    waitFor("the producer to create its job", std::chrono::seconds(120), [&] {
        const RedisValue jobs = m_client->command({"SMEMBERS", "couplet:jobs"});
        if (jobs.elements.empty()) return false;
        key = jobs.elements.front().text;
        return true;
    });
    return key;
}

std::map<std::string, OutputRow> expectEachRowOnce(const std::vector<OutputRow>& rows, int expected)
{
    std::map<std::string, OutputRow> byId;
    for (const OutputRow& row : rows) {
        const std::string& id = row.cells.at("id");
        CHECK(byId.emplace(id, row).second);   // a second copy of a row fails here
    }
    CHECK_EQ(byId.size(), static_cast<std::size_t>(expected));
    for (int i = 1; i <= expected; ++i) CHECK(byId.count("r" + std::to_string(i)) == 1);
    return byId;
}

} // namespace couplet::test
