#include "commands.h"
#include "generation_options.h"
#include "model_options.h"
#include "poster_output.h"

#include "generate.h"
#include "script_converter.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace couplet::cli {
namespace {

void printHelp()
{
    std::cout << "couplet generate --keywords 五福 [--length 7] [--count 3] [--acrostic 春福] [--hengpi 阖家欢乐]\n"
                 "couplet generate --embed 德顺 --at 燕颔 [--keywords 生意]\n"
                 "couplet generate --upper 春回大地千山秀\n"
                 "options:\n"
                 "  --keywords K       theme words, separated by spaces or commas\n"
                 "  --upper LINE       a given 上联: the model writes 下联 and 横批\n"
                 "  --embed AB         嵌名: A stands in the 上联 and B in the 下联 at --at's position.\n"
                 "                     A name of three or four characters is refused: give the two to\n"
                 "                     embed (for 张德顺, 德顺)\n"
                 "  --acrostic AB      藏头: the same as --embed AB --at 1 (上联 starts with A, 下联 with B)\n"
                 "  --hengpi TEXT      a fixed four-character 横批\n"
              << decodingOptionsHelp({"characters per line: 5, 7, 9 ... or 0 for free (default 7)",
                                      "candidates, best first (default 1)", "reproducible output (default random)"},
                                     21)
              << "  --json             one JSON object with all candidates\n"
                 "  --poster FILE      the best couplet as a 1080x1920 share card: FILE.png, or a PDF page for\n"
                 "                     FILE.pdf (the app's renderer; offscreen when there is no display)\n"
              << modelOptionsHelp();
}

GenerationSpec specFrom(Args& args)
{
    GenerationSpec spec;
    spec.keywords = args.value("keywords");
    spec.upper = args.value("upper");
    spec.acrostic = args.value("acrostic");
    const std::string embed = args.value("embed");
    if (!embed.empty() && !spec.acrostic.empty()) throw UsageError("give --embed or --acrostic, not both");
    if (!embed.empty()) spec.acrostic = embed;
    spec.mode = !spec.upper.empty() ? PromptMode::Upper
        : (!spec.acrostic.empty() && spec.keywords.empty()) ? PromptMode::Acrostic
                                                             : PromptMode::Keywords;
    if (spec.mode == PromptMode::Keywords && spec.keywords.empty() && !args.has("upper"))
        throw UsageError("give --keywords, --upper, --embed or --acrostic");
    spec.hengpi = args.value("hengpi");
    takeDecodingOptions(args, spec);
    if (!spec.acrostic.empty() && embed.empty() && spec.embedAt != 1)
        throw UsageError("--acrostic is 藏头 (position 1); give the name with --embed to place it at --at");
    return spec;
}

void printRanked(const std::vector<Couplet>& couplets)
{
    for (std::size_t i = 0; i < couplets.size(); ++i) {
        const auto& c = couplets[i];
        const auto& p = c.parts;
        std::cout << i + 1 << ". 上联 " << c.upper << "\n   下联 " << c.lower << "\n   横批 " << c.hengpi << "   (score "
                  << c.score << " = model " << p.logProb << " + 对仗 " << p.duizhang << " + 平仄 " << p.tone
                  << " + keywords " << p.keywords << " + repeats " << p.repetition << " + shared " << p.cliche
                  << " + backwards " << p.backward << " + loose words " << p.looseWords << " + torn keywords "
                  << p.tornKeywords << " + word 对仗 " << p.wordDuizhang << " + theme " << p.theme << " + melancholy "
                  << p.melancholy << " + judge " << p.judge << "; seed " << c.seed << ")\n";
    }
}

} // namespace

int runGenerate(Args& args)
{
    if (args.flag("help")) {
        printHelp();
        return 0;
    }
    const bool json = args.flag("json");
    const std::string poster = args.value("poster");
    GenerationSpec spec = specFrom(args);
    auto model = loadModel(args);
    args.finish();
    if (auto e = model->validate(spec); !e.empty()) throw UsageError(e);
    auto decoder = model->makeDecoder();
    // One candidate streams as it is written; several are printed ranked. A
    // script other than Simplified is converted by phrase, whole lines after
    // the choice: nothing streams.
    const bool stream = !json && sampledCandidates(spec) == 1 && spec.script == OutputScript::Simplified;
    CandidateDelta onDelta;
    if (stream) onDelta = [](int, std::string_view text) { std::cout << text << std::flush; };
    auto couplets = generateCouplets(*model, *decoder, spec, onDelta);
    for (auto& c : couplets) c = inScript(c, spec.script);
    if (!poster.empty() && !couplets.empty()) {
        if (auto e = writePoster(poster, couplets.front()); !e.empty()) throw std::runtime_error(e);
        std::cerr << "poster: " << poster << '\n';
    }
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& c : couplets)
            out.push_back({{"upper", c.upper}, {"lower", c.lower}, {"hengpi", c.hengpi}, {"score", c.score},
                           {"parts", partsJson(c.parts)}, {"seed", c.seed}});
        std::cout << out.dump(2) << '\n';
    } else if (stream) {
        std::cout << '\n';
    } else {
        printRanked(couplets);
    }
    return 0;
}

} // namespace couplet::cli
