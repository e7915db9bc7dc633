#pragma once

#include "loaded_model.h"
#include "engine_types.h"

#include "bulk_job.h"
#include "bulk_journal.h"
#include "scheduler_row_generator.h"

#include <memory>

namespace couplet {

// One bulk CSV job on the engine thread: the journal, the row generator over
// the engine's scheduler and the BulkJob (the same code as `couplet batch`).
// The engine worker steps the scheduler and calls step() between its steps.
class BulkRunner {
public:
    // Opens the journal and starts the job (counts the input, repairs the
    // output when resuming). Throws on what makes the job impossible.
    // `observer` sees every finished row sequence (the throughput meter).
    BulkRunner(quint64 jobId, const BulkRequest& request, Scheduler& scheduler, const CoupletGenerator& generator,
               std::function<void(const SequenceResult&)> observer);
    ~BulkRunner();

    // Submits rows and writes the finished ones; false once the job is over.
    // Throws when the job failed (e.g. the output cannot be written).
    bool step();
    // Whether step() has anything to do: running, or paused with rows in flight.
    bool wantsStep() const;
    // Finished, cancelled or failed.
    bool isOver() const;
    // Every row written; the posters are still being drawn.
    bool settling() const { return m_job->settling(); }
    void pause() { m_job->pause(); }
    void resume() { m_job->resume(); }
    void cancel() { m_job->cancel(); }

    quint64 jobId() const { return m_jobId; }
    const BulkRequest& request() const { return m_request; }
    BulkStatus status() const;

private:
    quint64 m_jobId;
    BulkRequest m_request;
    BulkJournal m_journal;
    SchedulerRowGenerator m_generator;
    std::unique_ptr<BulkJob> m_job;
};

} // namespace couplet
