#include "commands.h"

#include "blas_info.h"

#include <torch/version.h>

#include <cstring>
#include <iostream>
#include <string>

namespace {

void usage()
{
    std::cerr << "usage: couplet <command> [options]\n"
                 "commands:\n"
                 "  generate   write couplets for keywords, an upper line or an acrostic\n"
                 "  eval       generate 下联 for the 上联 of a TSV file and score them\n"
                 "  batch      generate for every row of a CSV file (resumable)\n"
                 "  bench      measure batching throughput and latency\n"
                 "  worker     generate bulk rows queued in Redis (batch --redis)\n"
                 "  cluster    'cluster status': workers, jobs and dead letters in a Redis\n"
                 "  serve      serve the model over HTTP (OpenAI-compatible API)\n"
                 "  train      train a model on a data folder\n"
                 "  train-judge  train the reranker's judge of human-likeness (judge.bin)\n"
                 "run 'couplet <command> --help' for a command's options;\n"
                 "'couplet --version' for the versions and the BLAS in use\n";
}

int version()
{
    const couplet::BlasInfo blas = couplet::detectBlas();
    std::cout << "couplet " << COUPLET_VERSION << "\nlibtorch " << TORCH_VERSION << "\nBLAS: " << blas.name();
    if (!blas.path.empty()) std::cout << ", " << blas.path;
#ifdef COUPLET_HAVE_RENDER
    std::cout << "\nposters: yes (generate --poster, QtGui)";
#else
    std::cout << "\nposters: no, built without QtGui (install qt6-base-dev and build again)";
#endif
    std::cout << std::endl;   // before the warning on stderr, in a shared log too
    if (!blas.warning().empty()) std::cerr << blas.warning() << '\n';
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        usage();
        return argc < 2 ? 2 : 0;
    }
    if (std::strcmp(argv[1], "--version") == 0) return version();
    const std::string command = argv[1];
    couplet::cli::Args args(argc - 2, argv + 2);
    try {
        if (command == "train") return couplet::cli::runTrain(args);
        if (command == "train-judge") return couplet::cli::runTrainJudge(args);
        if (command == "generate") return couplet::cli::runGenerate(args);
        if (command == "eval") return couplet::cli::runEval(args);
        if (command == "bench") return couplet::cli::runBench(args);
        if (command == "batch") return couplet::cli::runBatch(args);
        if (command == "worker") return couplet::cli::runWorker(args);
        if (command == "cluster") return couplet::cli::runCluster(args);
        if (command == "serve") return couplet::cli::runServe(args);
    } catch (const couplet::cli::UsageError& e) {
        std::cerr << "couplet " << command << ": " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "couplet " << command << ": error: " << e.what() << '\n';
        return 1;
    }
    std::cerr << "couplet: unknown command '" << command << "'\n";
    usage();
    return 2;
}
