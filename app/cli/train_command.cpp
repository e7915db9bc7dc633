#include "commands.h"

#include "trainer.h"

#include <iostream>

namespace couplet::cli {

int runTrain(Args& args)
{
    if (args.has("export")) {
        const std::filesystem::path to = args.value("export");
        const std::filesystem::path from = args.value("out");
        const bool fp32 = args.flag("fp32");
        args.finish();
        if (from.empty()) throw UsageError("--export needs --out (the trained model folder)");
        exportModel(from, to, !fp32);
        std::cout << "exported " << from.string() << " to " << to.string() << (fp32 ? " (fp32)\n" : " (fp16)\n");
        return 0;
    }
    if (args.flag("help")) {
        std::cout << "couplet train --data DIR --out DIR [--resume | --init-from MODEL_DIR] [--steps N] [--batch N] [--lr X]\n"
                     "              [--dim N] [--layers N] [--heads N] [--threads N] [--minutes M]\n"
                     "              [--device cpu|cuda] [--seed N]\n"
                     "couplet train --out DIR --export TO [--fp32]   copy a trained model for shipping (fp16)\n";
        return 0;
    }
    TrainOptions o;
    o.dataDir = args.value("data");
    o.outDir = args.value("out");
    if (o.dataDir.empty() || o.outDir.empty()) throw UsageError("--data and --out are required");
    o.resume = args.flag("resume");
    o.initFrom = args.value("init-from");
    if (o.resume && !o.initFrom.empty()) throw UsageError("--resume and --init-from exclude each other");
    o.steps = args.integer("steps", o.steps);
    o.batchSize = args.integer("batch", o.batchSize);
    o.learningRate = args.number("lr", o.learningRate);
    o.warmupSteps = args.integer("warmup", o.warmupSteps);
    o.minLearningRate = args.number("min-lr", o.minLearningRate);
    o.config.dim = args.integer("dim", o.config.dim);
    o.config.layers = args.integer("layers", o.config.layers);
    o.config.heads = args.integer("heads", o.config.heads);
    o.config.mlpHidden = args.integer("mlp", 4 * o.config.dim);
    o.threads = args.integer("threads", 0);
    o.maxMinutes = args.number("minutes", 0);
    o.evalEvery = args.integer("eval-every", o.evalEvery);
    o.saveEvery = args.integer("save-every", o.saveEvery);
    o.logEvery = args.integer("log-every", o.logEvery);
    o.device = args.value("device", "cpu");
    o.seed = static_cast<std::uint64_t>(args.integer("seed", 1));
    args.finish();
    train(o, std::cout);
    return 0;
}

} // namespace couplet::cli
