#pragma once

#include <cstdint>

namespace couplet {

// The state and counts of a bulk job, as the GUI and the CLI show them.
enum class BulkState { Idle, Running, Paused, Finished, Cancelled, Failed };

struct BulkProgress {
    BulkState state = BulkState::Idle;
    std::uint64_t total = 0;        // data records in the input
    std::uint64_t read = 0;         // records read so far in this run (done ones skipped)
    std::uint64_t ok = 0;           // rows in the journal, this run and earlier ones
    std::uint64_t invalid = 0;
    std::uint64_t failed = 0;
    std::uint64_t inFlight = 0;
    std::uint64_t repeated = 0;     // noRepeats: rows of this run whose every candidate shares a line already written
    double rowsPerSecond = 0;       // rows finished per second in this run
    double etaSeconds = -1;         // -1 while unknown
    std::uint64_t done() const { return ok + invalid + failed; }
};

} // namespace couplet
