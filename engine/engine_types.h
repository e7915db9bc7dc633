#pragma once

#include "auto_tune_result.h"
#include "bulk_import.h"
#include "bulk_progress.h"
#include "device_options.h"
#include "engine_stats.h"
#include "generation_spec.h"
#include "scheduler_settings.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <memory>

namespace couplet {

// A candidate's lines so far, sent at most once per flush (the one delta channel:
// the lines replace the previous chunk's).
struct TextChunk {
    quint64 requestId = 0;
    int candidate = 0;
    QString upper;       // the lines so far
    QString lower;
    QString hengpi;
    int tokens = 0;      // generated so far by this candidate
};

enum class Outcome { Done, Failed, Cancelled };

struct CandidateResult {
    quint64 requestId = 0;
    int candidate = 0;
    Outcome outcome = Outcome::Done;
    QString error;
    QString upper;
    QString lower;
    QString hengpi;
    double score = 0;    // the ranking score (mean log-probability per token when not reranked)
    quint64 seed = 0;
    int tokens = 0;
    ScoreParts parts;    // the score's terms, when reranked (reranked = true)
    bool reranked = false;
};

// A request (all of its candidates) has ended.
struct RequestSummary {
    quint64 requestId = 0;
    Outcome outcome = Outcome::Done;   // Done if any candidate is done
    QString error;
    double latencyMs = 0;              // submit -> last candidate finished
    double firstTokenMs = 0;
    int tokens = 0;
    double tokensPerSecond = 0;        // tokens / time spent generating
};

// A bulk CSV job: the import dialog's choices, and what the app adds.
struct BulkRequest : BulkImport {
    GenerationSpec defaults;   // length, sampling for every row
    int maxInFlight = 64;
    QString journal;           // the SQLite journal's path
    QString modelDir;          // for the output's model column
    // The posters of `posters` (BulkImport), made where render/ is (the app):
    // attached to the job when it starts, and again when it is reopened.
    std::shared_ptr<BulkPosterSink> posterSink;
};

// Where a bulk job stands; sent a few times a second and when it ends.
struct BulkStatus {
    quint64 jobId = 0;
    QString input;
    QString output;
    BulkProgress progress;
    bool resumed = false;
    QString error;             // why it failed, when progress.state is Failed
    bool hasPosters = false;   // the job draws posters: `posters` says how far
    BulkPosterProgress posters;
};

// A request of the local API server reached the engine (the queue shows it).
struct ApiRequestInfo {
    quint64 requestId = 0;
    GenerationSpec first;      // its first prompt
    int prompts = 1;
    int sequences = 1;         // prompts x n
};

// Registers the types above for queued connections; call once before use.
void registerEngineMetaTypes();

} // namespace couplet

Q_DECLARE_METATYPE(couplet::TextChunk)
Q_DECLARE_METATYPE(couplet::CandidateResult)
Q_DECLARE_METATYPE(couplet::RequestSummary)
Q_DECLARE_METATYPE(couplet::EngineSettings)
Q_DECLARE_METATYPE(couplet::EngineStats)
Q_DECLARE_METATYPE(couplet::AutoTuneResult)
Q_DECLARE_METATYPE(couplet::GenerationSpec)
Q_DECLARE_METATYPE(couplet::BulkRequest)
Q_DECLARE_METATYPE(couplet::BulkStatus)
Q_DECLARE_METATYPE(couplet::DeviceOptions)
Q_DECLARE_METATYPE(couplet::ApiRequestInfo)
