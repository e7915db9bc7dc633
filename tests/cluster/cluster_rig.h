#pragma once

// What every cluster test needs: its own redis-server, a tiny model folder,
// an input CSV, and the real `couplet worker` and `couplet batch --redis`
// processes on them, with their logs in the test's temporary folder.

#include "child_process.h"
#include "redis_connection.h"
#include "redis_server.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace couplet::test {

struct OutputRow {
    std::map<std::string, std::string> cells;   // by header name
};

class ClusterRig {
public:
    // Skips the program (77) when redis-server is missing.
    explicit ClusterRig(const std::string& name);
    ~ClusterRig();

    const std::filesystem::path& dir() const { return m_dir; }
    RedisServer& redis() { return *m_redis; }
    RedisConnection& client() { return *m_client; }

    // A tiny model folder; `maxLen` 0 keeps the tiny config's.
    std::filesystem::path writeModel(const std::string& folder, int seed, int maxLen = 0);
    // id,关键词,字数 with ids r1..rN; `lengths` overrides 字数 (7) by row number.
    std::filesystem::path writeInput(int rows, const std::map<int, int>& lengths = {});

    std::unique_ptr<ChildProcess> startWorker(const std::string& name, const std::filesystem::path& model,
                                              const std::vector<std::string>& extra = {});
    std::unique_ptr<ChildProcess> startProducer(const std::filesystem::path& model, bool resume,
                                                const std::vector<std::string>& extra = {});
    // `couplet cluster status --json`, parsed by the caller.
    std::string clusterStatusJson();

    std::filesystem::path output() const { return m_dir / "out.csv"; }
    // Data rows of the output (CsvReader), in file order.
    std::vector<OutputRow> readOutput() const;
    // Data rows whose CRLF terminator is on disk.
    int rowsOnDisk() const;
    // The one job the producer created (waits for it).
    std::string jobKey();

private:
    std::filesystem::path m_dir;
    std::unique_ptr<RedisServer> m_redis;
    std::unique_ptr<RedisConnection> m_client;
    std::string m_cli;
};

// Every id r1..rN exactly once; returns the rows by id.
std::map<std::string, OutputRow> expectEachRowOnce(const std::vector<OutputRow>& rows, int expected);

} // namespace couplet::test
