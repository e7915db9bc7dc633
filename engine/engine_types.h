#pragma once

#include "bulk_progress.h"
#include "device_options.h"
#include "generation_spec.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace couplet {

// Text one candidate produced since the previous flush, and its lines so far.
struct TextChunk {
    quint64 requestId = 0;
    int candidate = 0;
    QString delta;
    QString upper;
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
    double score = 0;    // mean log-probability per token
    quint64 seed = 0;
    int tokens = 0;
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

struct EngineSettings {
    int maxBatch = 32;
    int maxWaitMs = 50;
    int maxStepTokens = 2048;
    int threads = 0;
};

// About once a second: throughput over the meter's window and the machine.
struct EngineStats {
    double tokensPerSecond = 0;
    double coupletsPerSecond = 0;
    double p50LatencyMs = 0;
    double p95LatencyMs = 0;
    double batchOccupancy = 0;   // 0..1
    int queueDepth = 0;
    int running = 0;
    int maxBatch = 0;            // effective slots
    bool hasGpu = false;
    double deviceUtilPercent = 0;  // GPU, else this process's CPU share
    double deviceMemoryMiB = 0;    // GPU memory, else resident memory
    QString source;
};

struct AutoTuneResult {
    int batch = 0;
    double tokensPerSecond = 0;
    double coupletsPerSecond = 0;
    double meanLatencyMs = 0;
    double p95LatencyMs = 0;
};

// A bulk CSV job as the import dialog set it up.
struct BulkRequest {
    QString input;
    QString output;
    QString encoding;          // "" = detect; else a name parseEncodingName() takes
    QString mapping;           // ColumnMapping::toString() form; "" = from the header
    bool jsonLines = false;
    bool bom = true;           // CSV: UTF-8 BOM for Excel
    bool englishHeader = false;
    bool resume = false;
    GenerationSpec defaults;   // length, sampling for every row
    int maxInFlight = 64;
    QString journal;           // the SQLite journal's path
    QString modelDir;          // for the output's model column
};

// Where a bulk job stands; sent a few times a second and when it ends.
struct BulkStatus {
    quint64 jobId = 0;
    QString input;
    QString output;
    BulkProgress progress;
    bool resumed = false;
    QString error;             // why it failed, when progress.state is Failed
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
