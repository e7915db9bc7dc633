#pragma once

#include "generation_spec.h"
#include "prompt_row.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace couplet {

enum class RowStatus {
    Ok,        // a couplet was written
    Invalid,   // the input row cannot be used (never reached the model)
    Failed,    // the model or scheduler failed on this row
};

struct RowResult {
    RowStatus status = RowStatus::Ok;
    Couplet couplet;           // couplet.seed: the seed that produced it
    std::string error;         // why, when status is not Ok
    std::string model;         // model name or folder, for the output's "model" column
    double latencyMs = 0;      // submit -> done
    // The row's runner-up couplets, best first, when the generator was asked
    // for them (RowGenerator::offerAlternatives); never written or journalled.
    std::vector<Couplet> alternatives;
};

// What turns rows into couplets for a BulkJob: SchedulerRowGenerator (a
// CandidateGroup per row on a Scheduler), RedisRowGenerator (rows queued for
// workers); tests use a fake.
//
// Threading: all calls come from the thread that drives the BulkJob, and
// `done` must be called on that thread too (from poll(), or from submit()
// itself), exactly once per submitted row unless cancelAll() dropped it.
class RowGenerator {
public:
    virtual ~RowGenerator() = default;
    // Starts generating; the row is copied if it is needed after the call.
    virtual void submit(const PromptRow& row, std::function<void(RowResult)> done) = 0;
    // Advances work and calls `done` for rows that finished. Must not block
    // for long (one scheduler step); returns whether anything happened.
    virtual bool poll() = 0;
    // Drops every row in flight; their `done` callbacks are not called.
    virtual void cancelAll() = 0;
    // Extra check of rows before they are submitted (e.g. CoupletModel::validate
    // for characters outside the vocabulary); "" when fine.
    virtual std::string validate(const GenerationSpec&) const { return {}; }
    // Asks for every row's runner-up candidates in RowResult::alternatives
    // (BulkJobOptions::noRepeats chooses among them); false when this
    // generator cannot hand them back.
    virtual bool offerAlternatives() { return false; }
};

std::string_view rowStatusName(RowStatus status);   // "ok", "invalid", "failed"
RowStatus rowStatusFromName(std::string_view name);

} // namespace couplet
