#pragma once

#include "bench_results.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <ostream>

namespace couplet::bench {

// Turns a BenchReport into the printed tables, one JSON document and the
// per-batch-size CSV.
class BenchReportWriter {
public:
    static void printTables(const BenchReport& report, std::ostream& out);
    static nlohmann::json toJson(const BenchReport& report);
    static void writeJson(const BenchReport& report, const std::filesystem::path& path);
    static void writeCsv(const BenchReport& report, const std::filesystem::path& path);

private:
    static void printSweep(const BenchReport& report, std::ostream& out);
    static void printComparisons(const BenchReport& report, std::ostream& out);
    static void printFirstToken(const BenchReport& report, std::ostream& out);
    static void printRerank(const BenchReport& report, std::ostream& out);
    static void printRoofline(const BenchReport& report, std::ostream& out);
};

} // namespace couplet::bench
