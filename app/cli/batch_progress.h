#pragma once

#include "bulk_job.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace couplet::cli {

// Progress of `couplet batch` on stderr: on a terminal one bar redrawn in
// place (\r) about five times a second; otherwise (a log file, a CI job) a
// plain line every few seconds, so that logs stay readable.
class BatchProgress {
public:
    explicit BatchProgress(std::FILE* stream);

    bool interactive() const { return m_interactive; }
    // Shows `progress` if enough time passed since the last report.
    void update(const BulkProgress& progress);
    // Clears the bar (terminal) before the summary is printed.
    void finish();

    static std::string formatDuration(double seconds);

private:
    void drawBar(const BulkProgress& progress);
    void printLine(const BulkProgress& progress);

    std::FILE* m_stream;
    bool m_interactive;
    bool m_barShown = false;
    std::chrono::steady_clock::time_point m_last;
    bool m_first = true;
};

} // namespace couplet::cli
