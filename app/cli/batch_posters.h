#pragma once

#include "args.h"

#include "bulk_poster_sink.h"

#include <memory>
#include <string>

namespace couplet::cli {

// `couplet batch --posters DIR ...`: one poster per ok row, drawn by
// render/bulk (the same posters as the app's import dialog).
using PosterOptions = BulkPosterOptions;
using BulkPosters = BulkPosterSink;

// Reads --posters, --poster-format, --poster-size, --poster-font,
// --poster-ink, --poster-threads, --no-hengpi and --no-fu; UsageError on bad values.
PosterOptions takePosterOptions(Args& args);
std::string posterOptionsHelp();

// Checks the options (the font is installed, DIR can be made); throws
// UsageError or std::runtime_error saying what is wrong, and, in a build
// without QtGui, that posters cannot be drawn.
std::unique_ptr<BulkPosters> openPosters(const PosterOptions& options);

} // namespace couplet::cli
