#pragma once

#include "couplet_source.h"
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

struct SchedulerRowGeneratorOptions {
    // Groups this generator's sequences in the scheduler (cancelAll() cancels that job).
    std::uint64_t jobId = 1;
    // poll() runs one scheduler step (the CLI), or leaves stepping to the
    // scheduler's owner (the engine, whose scheduler also serves interactive
    // requests): only one party may step a shared scheduler.
    bool stepsScheduler = true;
    // Sees every finished candidate, e.g. for a throughput meter.
    std::function<void(const SequenceResult&)> observer;
};

// Turns bulk rows into couplets: each row's candidates are submitted to the
// Scheduler at Bulk priority under one job id, and the row is done when all
// of them finished; the best candidate (highest Couplet::score) becomes the
// row's result. A row whose candidates all fail is Failed with the first
// error; other rows are not affected. The one row generator of `couplet
// batch`, the benchmark and the desktop app's bulk jobs.
class SchedulerRowGenerator : public RowGenerator {
public:
    using Options = SchedulerRowGeneratorOptions;

    // `model`: a CoupletModel or an EngineBackend, outliving the generator.
    // `modelName` goes into each result's model column.
    template <class Model>
    SchedulerRowGenerator(Scheduler& scheduler, const Model& model, std::string modelName,
                          std::uint64_t jobId = 1)
        : SchedulerRowGenerator(scheduler, CoupletSource::of(model), std::move(modelName), Options{jobId, true, {}})
    {
    }
    SchedulerRowGenerator(Scheduler& scheduler, CoupletSource source, std::string modelName, Options options);
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
    CoupletSource m_source;
    std::string m_modelName;
    Options m_options;
    std::uint64_t m_nextKey = 1;
    std::map<std::uint64_t, Row> m_rows;
    // Finished rows wait here so that `done` runs after the scheduler step
    // returned, never from inside the scheduler's callbacks.
    std::deque<std::pair<std::function<void(RowResult)>, RowResult>> m_finished;
};

} // namespace couplet
