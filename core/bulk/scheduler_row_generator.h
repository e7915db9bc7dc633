#pragma once

#include "candidate_group.h"
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

// Turns bulk rows into couplets: each row is one CandidateGroup (the same
// as a couplet typed in the editor: sampledCandidates() candidates, reranked
// unless the spec says --no-rerank) at Bulk priority under one job id; its
// best couplet becomes the row's result. A row whose candidates all fail is
// Failed with the first error; other rows are not affected. The one row
// generator of `couplet batch`, `couplet worker`, the benchmark and the
// desktop app's bulk jobs.
class SchedulerRowGenerator : public RowGenerator {
public:
    using Options = SchedulerRowGeneratorOptions;

    // `generator` outlives this object; `modelName` goes into each result's model column.
    SchedulerRowGenerator(Scheduler& scheduler, const CoupletGenerator& generator, std::string modelName,
                          Options options = {});
    // A row's spec as a group: one couplet, spec.candidates of an older row
    // (candidates sampled per row, the best kept) read as spec.bestOf, and
    // kBulkRerankFactor candidates where the row sets neither and is reranked.
    static GenerationSpec groupSpec(const GenerationSpec& rowSpec);
    ~SchedulerRowGenerator() override;

    void submit(const PromptRow& row, std::function<void(RowResult)> done) override;
    bool poll() override;
    void cancelAll() override;
    std::string validate(const GenerationSpec& spec) const override;
    // Ranks every sampled candidate of a row (the same pool, no more
    // sampling) and hands back those after the best as alternatives.
    bool offerAlternatives() override
    {
        m_alternatives = true;
        return true;
    }

    std::size_t rowsInFlight() const { return m_rows.size(); }

private:
    struct Row {
        std::function<void(RowResult)> done;
        Clock::time_point submitted;
    };

    void onRowFinished(std::uint64_t key, GroupResult group);
    static RowResult resultOf(GroupResult& group);
    bool m_alternatives = false;
    void finishNow(std::function<void(RowResult)> done, RowResult result);
    bool deliverFinished();

    Scheduler& m_scheduler;
    const CoupletGenerator& m_generator;
    std::string m_modelName;
    Options m_options;
    std::uint64_t m_nextKey = 1;
    std::map<std::uint64_t, Row> m_rows;
    // Finished rows wait here so that `done` runs after the scheduler step
    // returned, never from inside the scheduler's callbacks.
    std::deque<std::pair<std::function<void(RowResult)>, RowResult>> m_finished;
};

} // namespace couplet
