#pragma once

#include "args.h"

#include "bulk_job.h"
#include "committed_row_sink.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace couplet::cli {

// `couplet batch --posters DIR ...`: one poster per ok row, drawn by render/.
struct PosterOptions {
    std::filesystem::path dir;   // empty: no posters
    bool card = true;            // NAME.png, the 1080 x 1920 share card
    bool print = false;          // NAME.pdf, the print-ready PDF (print_poster.h)
    std::string printSize = "130x23";
    std::string font;            // empty: the brush font, else any Chinese font with the glyphs
    std::string ink = "gold";    // gold or black
    bool hengpi = true;
    bool fu = true;
    int threads = 0;             // render threads; 0: half the cores, at least 1
};

// Reads --posters, --poster-format, --poster-size, --poster-font,
// --poster-ink, --poster-threads, --no-hengpi and --no-fu; UsageError on bad values.
PosterOptions takePosterOptions(Args& args);
std::string posterOptionsHelp();

// Writes the posters of a bulk job on threads of their own while rows are
// generated. A poster is written to DIR/.partial/ and renamed into DIR, so
// DIR holds only whole files; the job is marked finished only when every
// poster is written, and on --resume the rows an interrupted run committed
// get the posters they lack (and keep those they have).
class BulkPosters : public CommittedRowSink {
public:
    // Names the posters by the input's id column (read once here), clears
    // what a killed run left in DIR/.partial/ and starts the render threads.
    // Call after job.start(), before its first step().
    virtual void attach(BulkJob& job, const std::filesystem::path& input) = 0;
    // Drops posters not yet started and waits for those being drawn (Ctrl-C;
    // --resume draws the rest).
    virtual void stop() = 0;
    // "posters: N written ..., X posters/s -> DIR"
    virtual std::string summary() const = 0;
    virtual std::uint64_t failed() const = 0;
};

// Checks the options (the font is installed, DIR can be made); throws
// UsageError or std::runtime_error saying what is wrong, and, in a build
// without QtGui, that posters cannot be drawn.
std::unique_ptr<BulkPosters> makeBulkPosters(const PosterOptions& options);

} // namespace couplet::cli
