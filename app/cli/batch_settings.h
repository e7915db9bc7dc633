#pragma once

#include "args.h"
#include "batch_posters.h"

#include "bulk_job.h"
#include "bulk_journal.h"
#include "scheduler_settings.h"

#include <filesystem>
#include <functional>
#include <string>

namespace couplet::cli {

inline constexpr int kExitInterrupted = 130;

// `couplet batch` options, shared by the local path (batch_command.cpp) and
// the one over Redis workers (batch_cluster.cpp).
struct BatchSettings {
    BulkJobOptions job;
    std::filesystem::path journal;
    bool restart = false;
    bool quiet = false;
    int batch = SchedulerSettings{}.maxBatch;   // --max-batch
    std::string redis;   // redis://... : rows go to workers
    PosterOptions posters;
};

void checkUnfinishedJob(const BulkJournal& journal, const BatchSettings& s);
// BulkJob::start() with a CSV error explained (a guessed encoding).
void startJob(BulkJob& job, const BatchSettings& s);
// Steps the job until it ends or Ctrl-C (then cancels it); false when
// interrupted. `afterStep` runs after every step.
bool drive(BulkJob& job, const BatchSettings& s, const std::function<void()>& afterStep = {});
bool interruptRequested();
void printSummary(const BulkJob& job, const BatchSettings& s, double seconds);
// The model column's name for a model folder: its last component.
std::string modelNameOf(const std::filesystem::path& dir);

// The job's posters when --posters was given (checked before the model
// loads), attached to the started job; else nullptr.
std::unique_ptr<BulkPosters> preparePosters(const BatchSettings& s);
void attachPosters(BulkPosters* posters, BulkJob& job, const BatchSettings& s);
// The posters' summary after the job's; false when a poster failed.
bool reportPosters(BulkPosters* posters, const BatchSettings& s);

int runClusterBatch(BatchSettings& s, Args& args);

} // namespace couplet::cli
