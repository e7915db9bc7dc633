#include "batch_progress.h"

#include <algorithm>
#include <cmath>
#include <unistd.h>

namespace couplet::cli {
namespace {

constexpr auto kBarInterval = std::chrono::milliseconds(200);
constexpr auto kLineInterval = std::chrono::seconds(5);
constexpr int kBarWidth = 28;

double percentOf(const BulkProgress& p)
{
    return p.total == 0 ? 100.0 : 100.0 * static_cast<double>(p.done()) / static_cast<double>(p.total);
}

} // namespace

BatchProgress::BatchProgress(std::FILE* stream)
    : m_stream(stream)
    , m_interactive(::isatty(::fileno(stream)) == 1)
{
}

std::string BatchProgress::formatDuration(double seconds)
{
    if (seconds < 0) return "?";
    const auto s = static_cast<long long>(std::llround(seconds));
    char text[32];
    if (s >= 3600)
        std::snprintf(text, sizeof text, "%lldh%02lldm", s / 3600, s % 3600 / 60);
    else if (s >= 60)
        std::snprintf(text, sizeof text, "%lldm%02llds", s / 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%llds", s);
    return text;
}

void BatchProgress::update(const BulkProgress& progress)
{
    const auto now = std::chrono::steady_clock::now();
    const auto interval = m_interactive ? std::chrono::steady_clock::duration(kBarInterval)
                                        : std::chrono::steady_clock::duration(kLineInterval);
    if (!m_first && now - m_last < interval) return;
    m_first = false;
    m_last = now;
    if (m_interactive)
        drawBar(progress);
    else
        printLine(progress);
}

void BatchProgress::drawBar(const BulkProgress& p)
{
    const double percent = percentOf(p);
    const int filled = std::clamp(static_cast<int>(percent * kBarWidth / 100.0), 0, kBarWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(kBarWidth - filled), '.');
    // \033[K clears what a longer previous line left behind.
    std::fprintf(m_stream, "\r[%s] %llu/%llu %5.1f%%  %.1f rows/s  ETA %s%s\033[K", bar.c_str(),
                 static_cast<unsigned long long>(p.done()), static_cast<unsigned long long>(p.total),
                 percent, p.rowsPerSecond, formatDuration(p.etaSeconds).c_str(),
                 p.state == BulkState::Paused ? "  (paused)" : "");
    std::fflush(m_stream);
    m_barShown = true;
}

void BatchProgress::printLine(const BulkProgress& p)
{
    std::fprintf(m_stream, "progress: %llu/%llu rows (%.1f%%), %llu invalid, %llu failed, %.1f rows/s, ETA %s\n",
                 static_cast<unsigned long long>(p.done()), static_cast<unsigned long long>(p.total),
                 percentOf(p), static_cast<unsigned long long>(p.invalid),
                 static_cast<unsigned long long>(p.failed), p.rowsPerSecond,
                 formatDuration(p.etaSeconds).c_str());
    std::fflush(m_stream);
}

void BatchProgress::finish()
{
    if (!m_barShown) return;
    std::fprintf(m_stream, "\r\033[K");
    std::fflush(m_stream);
    m_barShown = false;
}

} // namespace couplet::cli
