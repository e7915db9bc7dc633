#include "batch_posters.h"

#include <sstream>

namespace couplet::cli {

PosterOptions takePosterOptions(Args& args)
{
    PosterOptions o;
    const std::string dir = args.value("posters");
    const std::string format = args.value("poster-format", "card");
    o.printSize = args.value("poster-size", o.printSize);
    o.font = args.value("poster-font");
    o.ink = args.value("poster-ink", o.ink);
    o.hengpi = !args.flag("no-hengpi");
    o.fu = !args.flag("no-fu");
    o.threads = args.integer("poster-threads", 0);
    const bool anyPosterOption = args.has("poster-format") || args.has("poster-size") || args.has("poster-font")
        || args.has("poster-ink") || args.has("poster-threads") || !o.hengpi || !o.fu;
    if (dir.empty()) {
        if (anyPosterOption) throw UsageError("the --poster-... options, --no-hengpi and --no-fu need --posters DIR");
        return o;
    }
    o.dir = std::filesystem::absolute(dir).lexically_normal();
    if (format == "card" || format == "print" || format == "card,print" || format == "print,card") {
        o.card = format.find("card") != std::string::npos;
        o.print = format.find("print") != std::string::npos;
    } else {
        throw UsageError("--poster-format expects card, print or card,print, got '" + format + "'");
    }
    if (o.ink != "gold" && o.ink != "black") throw UsageError("--poster-ink expects gold or black, got '" + o.ink + "'");
    if (o.threads < 0) throw UsageError("--poster-threads must be 0 (automatic) or more");
    return o;
}

std::string posterOptionsHelp()
{
    std::ostringstream out;
    out << "Posters. One image per ok row, named by the row's id (characters that cannot be in\n"
           "a file name become _; a repeated id gets -ROW appended; no id: row-ROW), drawn on\n"
           "threads of their own beside generation. Rows whose couplet the font cannot write get\n"
           "no poster and say why in their error column. With --resume, rows done before the\n"
           "interruption get the posters they lack; those already there are kept.\n"
           "  --posters DIR         write the posters into DIR (made if missing)\n"
           "  --poster-format F     card: ID.png, a 1080x1920 share card (default); print: ID.pdf,\n"
           "                        print-ready, one page per piece (上联, 下联, 横批, 福), each\n"
           "                        its trim size plus 3 mm bleed, 300 dpi, vector; card,print: both\n"
           "  --poster-size S       the lines' size in cm for print: 130x23 (default), 160x28,\n"
           "                        180x33, 200x36; 横批 as tall as a line is wide, 福 twice as wide\n"
           "  --poster-font FAMILY  font (fc-list :lang=zh family); default AR PL UKai, or any\n"
           "                        Chinese font that has every character of the row\n"
           "  --poster-ink C        gold (default) or black characters\n"
           "  --no-hengpi, --no-fu  posters without the 横批, without the 福\n"
           "  --poster-threads N    render threads (default half the cores, at least 1)\n";
    return out.str();
}

} // namespace couplet::cli
