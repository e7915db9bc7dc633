#pragma once

#include "committed_row_sink.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace couplet {

class BulkJob;

// One poster per ok row of a bulk job, named by the row's id: what `couplet
// batch --posters` and the app's import dialog choose. Qt-free, so that the
// engine and the CLI's options pass it on; render/bulk draws the posters.
struct BulkPosterOptions {
    std::filesystem::path dir;   // empty: no posters
    bool card = true;            // ID.png, the 1080 x 1920 share card
    bool print = false;          // ID.pdf, the print-ready PDF (print_poster.h)
    std::string printSize = "130x23";
    std::string font;            // empty: the brush font, else any Chinese font with the glyphs
    std::string ink = "gold";    // gold or black
    bool hengpi = true;
    bool fu = true;
    int threads = 0;             // render threads; 0: half the cores, at least 1
    // How long settled() may wait for the posters still drawn: the CLI's
    // loop 50 ms; the engine's thread, which serves the editor too, 0.
    int settleWaitMs = 50;
};

// Where the posters of a job stand (any thread).
struct BulkPosterProgress {
    std::uint64_t written = 0;   // drawn in this run
    std::uint64_t kept = 0;      // already there from an interrupted run
    std::uint64_t noFont = 0;    // rows whose couplet no font writes (their error column says so)
    std::uint64_t failed = 0;    // drawing or renaming failed
    std::uint64_t waiting = 0;   // queued or being drawn
    double postersPerSecond = 0; // rows drawn per second in this run
    std::vector<std::string> problems;   // the first few, each naming its row
    std::uint64_t done() const { return written + kept; }
};

// A CommittedRowSink that draws the posters on threads of its own, exactly
// once per committed row: into DIR/.partial/ and renamed into DIR when
// whole; the job is marked finished only when every poster is written, and
// a resumed job gives the rows an interrupted run committed the posters
// they lack (and keeps those they have). Made by makeBulkPosters()
// (render/bulk/bulk_posters.h), where QtGui is.
class BulkPosterSink : public CommittedRowSink {
public:
    // Names the posters by the input's id column, clears what a killed run
    // left in DIR/.partial/, starts the render threads and sets itself as the
    // job's sink. Call after job.start(), before its first step(). Again for
    // the same job reopened (a model reload): the posters queued go on.
    virtual void attach(BulkJob& job) = 0;
    // Drops posters not yet started and waits for those being drawn (a
    // resumed job draws the rest); until attached again, settled() is false,
    // so the job is not marked finished without them.
    virtual void stop() = 0;
    virtual BulkPosterProgress progress() const = 0;
    // "posters (card PNG): N rows drawn, ... -> DIR"
    virtual std::string summary() const = 0;
};

} // namespace couplet
