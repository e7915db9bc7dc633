#pragma once

#include "prompt_row.h"
#include "row_generator.h"

namespace couplet {

// Something made from every row of a bulk job once the row is safe in the
// journal (a job's posters, bulk_poster_sink.h), exactly once however
// the job ends. BulkJob calls it from its own thread:
//  - beforeWrite() for a new row, just before it is written and committed;
//    it may note in result.error what cannot be made of the row (a font that
//    lacks a glyph), so that the output row says so;
//  - committed() after the row's commit, with earlierRun = false, and on
//    resume for every row an interrupted run committed, with earlierRun = true,
//    as the input is read past it (row.spec is then unset);
//  - settled() before the job is marked finished: false keeps the job
//    running (and resumable) until the work queued from committed() is done.
//    It may block for a moment.
class CommittedRowSink {
public:
    virtual ~CommittedRowSink() = default;
    virtual void beforeWrite(const PromptRow&, RowResult&) {}
    virtual void committed(const PromptRow& row, const RowResult& result, bool earlierRun) = 0;
    virtual bool settled() { return true; }
};

} // namespace couplet
