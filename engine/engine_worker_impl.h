#pragma once

// EngineWorker's private state, shared by its two source files
// (engine_worker.cpp, and engine_worker_api.cpp for the local API server).

#include "engine_worker.h"

#include "auto_tuner.h"
#include "bulk_slot.h"

#include "candidate_group.h"
#include "scheduler.h"
#include "system_monitor.h"
#include "throughput_meter.h"

#include <QElapsedTimer>
#include <QTimer>

#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace couplet {

// A request of the editor (one CandidateGroup) or of the local API server
// (one group per prompt) while its groups run.
struct RequestInfo {
    int groupsLeft = 0;
    std::vector<std::string> raw;   // by choice: the text streamed so far ("上联\n下联\n横批")
    int done = 0;
    QString error;
    double latencyMs = 0;
    double firstTokenMs = -1;
    double generatingMs = 0;   // longest first-token -> finish of its sequences
    int tokens = 0;
};

struct EngineWorker::Impl {
    Impl(BulkSlot::Emit emit, BulkSlot::Observer observer) : bulk(std::move(emit), std::move(observer)) {}

    BackendLoader loader;
    std::shared_ptr<CoupletGenerator> generator;
    std::unique_ptr<Decoder> decoder;
    std::unique_ptr<Scheduler> scheduler;
    QString modelDir;
    ThroughputMeter meter{std::chrono::seconds(10)};
    SystemMonitor monitor;
    EngineSettings settings;
    std::unordered_map<quint64, RequestInfo> requests;
    QList<TextChunk> pending;
    std::map<std::pair<quint64, int>, qsizetype> pendingIndex;
    QElapsedTimer sinceFlush;
    QElapsedTimer sinceStats;
    QTimer* statsTimer = nullptr;
    std::unique_ptr<AutoTuner> tuner;
    BulkSlot bulk;
    std::string lastWarning;
    bool stepPosted = false;
    bool shuttingDown = false;
    // The loaded model as other threads see it (loadedModel()).
    mutable std::mutex loadedMutex;
    LoadedModel loaded;

    void setLoaded(LoadedModel model)
    {
        std::lock_guard lock(loadedMutex);
        loaded = std::move(model);
    }

    void shutDownScheduler()
    {
        setLoaded({});
        tuner.reset();
        bulk.drop();
        if (scheduler)
            scheduler->cancelAll();
        scheduler.reset();
        decoder.reset();
        requests.clear();
    }
};

} // namespace couplet
