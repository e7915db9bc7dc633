#include "commands.h"

#include "align_table_builder.h"
#include "cpu_features.h"
#include "example_index.h"
#include "styled_training.h"
#include "trainer.h"
#include "training_data.h"

#include <iostream>

namespace couplet::cli {

namespace {

// couplet train --data DIR --align-table OUT: the 对仗 table of the training split.
int buildAlignTableCommand(Args& args)
{
    const std::filesystem::path out = args.value("align-table");
    const std::filesystem::path dataDir = args.value("data");
    AlignTable::BuildOptions o;
    o.topK = args.integer("top-k", o.topK);
    o.minCount = args.integer("min-count", o.minCount);
    o.alpha = args.number("alpha", o.alpha);
    o.weight = args.number("align-weight", o.weight);
    const std::string score = args.value("align-score", "pmi");
    if (score != "pmi" && score != "logcount") throw UsageError("--align-score must be pmi or logcount, not \"" + score + "\"");
    o.logCount = score == "logcount";
    o.byMix = args.flag("align-mix");
    args.finish();
    if (dataDir.empty()) throw UsageError("--align-table needs --data (the training data folder)");
    if (o.topK < 1 || o.minCount < 1 || !(o.alpha > 0) || o.weight < 0)
        throw UsageError("--top-k and --min-count must be at least 1, --alpha positive, --align-weight not negative");
    const auto data = TrainingData::load(dataDir);
    const auto table = buildAlignTable(data, o);
    table.save(out);
    std::cout << "wrote " << out.string() << ": " << table.rows() << " rows from " << table.positions()
              << " aligned positions of the training split\n";
    return 0;
}

// couplet train --data DIR --bigram-table OUT: which characters follow which
// in the lines of the training split.
int buildBigramTableCommand(Args& args)
{
    const std::filesystem::path out = args.value("bigram-table");
    const std::filesystem::path dataDir = args.value("data");
    const int minCount = args.integer("min-count", 2);
    const double weight = args.number("bigram-weight", 1.0);
    args.finish();
    if (dataDir.empty()) throw UsageError("--bigram-table needs --data (the training data folder)");
    if (minCount < 1 || !(weight >= 0)) throw UsageError("--min-count must be at least 1 and --bigram-weight not negative");
    const auto data = TrainingData::load(dataDir);
    const auto table = buildBigramTable(data, static_cast<std::uint32_t>(minCount), weight);
    table.save(out);
    std::cout << "wrote " << out.string() << ": " << table.pairs() << " character pairs from " << table.lines()
              << " lines of the training split\n";
    return 0;
}

// couplet train --data DIR --example-index OUT: the theme examples a model
// with <ex> retrieves at generation, from the modern training split only.
int buildExampleIndexCommand(Args& args)
{
    const std::filesystem::path out = args.value("example-index");
    const std::filesystem::path dataDir = args.value("data");
    const std::filesystem::path modelDir = args.value("model");
    std::filesystem::path themes = args.value("themes");
    const int perTheme = args.integer("per-theme", 300);
    const auto seed = static_cast<std::uint64_t>(args.integer("seed", 1));
    args.finish();
    if (dataDir.empty()) throw UsageError("--example-index needs --data (the training data folder)");
    if (themes.empty() && !modelDir.empty()) themes = modelDir / "themes.tsv";
    if (themes.empty()) throw UsageError("--example-index needs --themes THEMES.tsv or --model DIR (with a themes.tsv)");
    if (perTheme < 1) throw UsageError("--per-theme must be at least 1");
    const auto lexicon = ThemeLexicon::load(themes);
    auto data = TrainingData::load(dataDir);
    if (!modelDir.empty()) data.restrictTo(Vocab::load(modelDir / "vocab.txt"));
    const auto index = buildExampleIndex(data, lexicon, static_cast<std::size_t>(perTheme), seed);
    if (index.empty()) throw UsageError(dataDir.string() + ": no modern training pairs (couplets/modern.tsv)");
    index.save(out);
    std::cout << "wrote " << out.string() << ": " << index.size() << " couplets of the modern training split, up to "
              << perTheme << " of each theme of " << themes.string() << '\n';
    return 0;
}

} // namespace

int runTrain(Args& args)
{
    if (args.has("align-table")) return buildAlignTableCommand(args);
    if (args.has("example-index")) return buildExampleIndexCommand(args);
    if (args.has("bigram-table")) return buildBigramTableCommand(args);
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
                     "              [--device cpu|cuda] [--seed N] [--warmup N] [--min-lr X] [--bf16 | --fp32]\n"
                     "              [--grow-layers N] [--styles LEXICON] [--examples THEMES.tsv [--example-rate 0.7]]\n"
                     "              [--partners [--partner-lr-scale X]]\n"
                     "              [--preferences FILE.tsv [--preference-beta 0.1] [--preference-weight 1]\n"
                     "               [--preference-batch 32]]\n"
                     "  --resume  continue the checkpoint in --out with the schedule it was started with (steps, batch,\n"
                     "            learning rates, warm-up); any of those given as well replace the recorded ones\n"
                     "  --grow-layers N  with --init-from: deepen to N layers, each new one a copy of the layer below\n"
                     "                   with its output projections zeroed (the same function at step 0)\n"
                     "  --styles LEXICON  style tokens: each example says its style after <bos> (festive, modern,\n"
                     "                   verse, classical), the festive modern couplets found by LEXICON\n"
                     "                   (training/festive-lexicon.txt); with --init-from the tokens are appended\n"
                     "  --examples THEMES.tsv  theme examples: a share of the examples (--example-rate) read a\n"
                     "                   related training couplet (same theme by THEMES.tsv, or a shared bigram)\n"
                     "                   before the prompt, as context; with --init-from the <ex> token is appended\n"
                     "  --partners  partner embeddings: the input that predicts 下联 character i also gets the\n"
                     "              embedding of 上联 character i through a projection that starts at zero\n"
                     "              (with --init-from: the same function at step 0)\n"
                     "  --partner-lr-scale X  the projection's learning rate as X times the others' (default 1)\n"
                     "  --preferences FILE.tsv  preference training (DPO): rows of mode (keywords, acrostic or\n"
                     "              upper), text, length, a printable 上联 and 下联, an unprintable 上联 and 下联, written\n"
                     "              for that request; each step adds the DPO loss of --preference-batch pairs (x\n"
                     "              --preference-weight) against the starting weights; 1 request in 10 is held out\n"
                     "              (training/self-training/make-preferences.py writes the file from judges' verdicts)\n"
                     "  --bf16  the forward pass's products in bf16 (autocast; the default on CPUs with avx512_bf16)\n"
                     "  --fp32  every product in fp32\n"
                     "couplet train --out DIR --export TO [--fp32]   copy a trained model for shipping (fp16)\n"
                     "couplet train --data DIR --align-table OUT.tsv [--top-k 48] [--min-count 2] [--alpha 200]\n"
                     "              [--align-weight W] [--align-score pmi|logcount] [--align-mix]\n"
                     "              the 对仗 table of the training split (ship as align.tsv); --align-mix counts each\n"
                     "              corpus by its share of the training mix instead of its size\n"
                     "couplet train --data DIR --example-index OUT.tsv [--model DIR | --themes THEMES.tsv] [--per-theme 300]\n"
                     "              theme examples from the modern training split (ship as examples.tsv)\n"
                     "couplet train --data DIR --bigram-table OUT.tsv [--min-count 2] [--bigram-weight 1]\n"
                     "              which characters follow which in the lines of the training split (ship as\n"
                     "              bigrams.tsv): decoding favours them, against made-up words\n";
        return 0;
    }
    TrainOptions o;
    o.dataDir = args.value("data");
    o.outDir = args.value("out");
    if (o.dataDir.empty() || o.outDir.empty()) throw UsageError("--data and --out are required");
    o.resume = args.flag("resume");
    o.initFrom = args.value("init-from");
    if (o.resume && !o.initFrom.empty()) throw UsageError("--resume and --init-from exclude each other");
    o.growLayers = args.integer("grow-layers", 0);
    o.styleLexicon = args.value("styles");
    o.exampleThemes = args.value("examples");
    o.exampleRate = args.number("example-rate", o.exampleRate);
    o.partners = args.flag("partners");
    if (args.has("partner-lr-scale") && !o.partners && !o.resume)
        throw UsageError("--partner-lr-scale needs --partners (or --resume of a run with partner embeddings)");
    if (!(o.exampleRate >= 0 && o.exampleRate <= 1)) throw UsageError("--example-rate must be between 0 and 1");
    if (o.growLayers != 0 && o.initFrom.empty()) throw UsageError("--grow-layers needs --init-from");
    if (o.resume && !loadResumedSchedule(o)
        && !(args.has("steps") && args.has("lr") && args.has("min-lr") && args.has("warmup")))
        throw UsageError((o.outDir / "checkpoint" / "state.json").string()
                         + " does not record its schedule (an older trainer wrote it): give --steps, --lr, --min-lr"
                           " and --warmup as the run began, or the defaults would restart its learning rate");
    o.partnerLrScale = args.number("partner-lr-scale", o.partnerLrScale);
    if (!(o.partnerLrScale > 0)) throw UsageError("--partner-lr-scale must be positive");
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
    // bf16 products by default where the CPU runs them natively: 2.9x the
    // tokens/s of fp32 on the project's 2-core Zen 4, the same loss.
    o.bf16 = args.flag("bf16") || (!args.flag("fp32") && o.device == "cpu" && CpuFeatures::host().avx512bf16);
    o.preferences = args.value("preferences");
    if (args.has("preference-beta") || args.has("preference-weight") || args.has("preference-batch"))
        if (o.preferences.empty()) throw UsageError("--preference-beta, -weight and -batch need --preferences FILE");
    o.preferenceBeta = args.number("preference-beta", o.preferenceBeta);
    o.preferenceWeight = args.number("preference-weight", o.preferenceWeight);
    o.preferenceBatch = args.integer("preference-batch", o.preferenceBatch);
    if (!(o.preferenceBeta > 0)) throw UsageError("--preference-beta must be positive");
    if (!(o.preferenceWeight > 0)) throw UsageError("--preference-weight must be positive");
    if (o.preferenceBatch < 1) throw UsageError("--preference-batch must be at least 1");
    o.seed = static_cast<std::uint64_t>(args.integer("seed", 1));
    args.finish();
    train(o, std::cout);
    return 0;
}

} // namespace couplet::cli
