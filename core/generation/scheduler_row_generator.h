#pragma once

#include "couplet_model.h"
#include "row_generator.h"
#include "scheduler.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace couplet {

// Turns bulk rows into couplets with the real model: each row's candidates
// are submitted to the Scheduler at Bulk priority under one job id, and the
// row is done when all of them finished; the best candidate (highest
// Couplet::score) becomes the row's result. A row whose candidates all fail
// is Failed with the first error; other rows are not affected.
//
// poll() runs one scheduler step. The scheduler may be shared with
// interactive requests, which it serves first; then only one party may step
// it, so a shared scheduler's owner must not also step it elsewhere.
class SchedulerRowGenerator : public RowGenerator {
public:
    // `modelName` goes into each result's model column. `jobId` groups this
    // generator's sequences in the scheduler (cancelAll() cancels that job).
    SchedulerRowGenerator(Scheduler& scheduler, const CoupletModel& model, std::string modelName,
                          std::uint64_t jobId = 1);
    ~SchedulerRowGenerator() override;

    void submit(const PromptRow& row, std::function<void(RowResult)> done) override;
    bool poll() override;
    void cancelAll() override;
    std::string validate(const GenerationSpec& spec) const override;

    std::size_t rowsInFlight() const { return m_rows.size(); }

private:
    struct Row {
        std::function<void(RowResult)> done;
        Clock::time_point submitted;
        int remaining = 0;                // candidates not finished yet
        std::vector<Couplet> candidates;  // finished ones
        std::string firstError;
    };

    void onCandidateFinished(std::uint64_t key, const SequenceResult& result);
    RowResult resultOf(const Row& row) const;
    void finishNow(std::function<void(RowResult)> done, RowResult result);
    bool deliverFinished();

    Scheduler& m_scheduler;
    const CoupletModel& m_model;
    std::string m_modelName;
    std::uint64_t m_jobId;
    std::uint64_t m_nextKey = 1;
    std::map<std::uint64_t, Row> m_rows;
    // Finished rows wait here so that `done` runs after the scheduler step
    // returned, never from inside the scheduler's callbacks.
    std::deque<std::pair<std::function<void(RowResult)>, RowResult>> m_finished;
};

} // namespace couplet
