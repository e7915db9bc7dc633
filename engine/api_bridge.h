#pragma once

#include "completion_engine.h"
#include "loaded_model.h"

#include <atomic>
#include <memory>
#include <mutex>

namespace couplet {

class EngineController;

// The desktop app's engine as the HTTP front end's CompletionEngine: the
// same ApiServer that `couplet serve` runs, over the app's one engine thread.
// An HTTP thread's request becomes an ApiJob posted to the EngineWorker, whose
// scheduler batches it with the editor's and the bulk job's work. Thread-safe.
class ApiBridge : public CompletionEngine {
public:
    ApiBridge(EngineController& engine, std::shared_ptr<ServingMetrics> metrics, int maxOutstanding);

    std::shared_ptr<const ServedModel> currentModel() const override;
    std::shared_ptr<ServingJob> submit(const std::vector<GenerationSpec>& specs, int n, int maxTokens) override;
    void cancel(std::uint64_t jobId) override;
    EngineGauges gauges() const override;
    int capacity() const override { return m_maxOutstanding; }

    // GUI thread, from the engine's stats (about once a second).
    void setGauges(const EngineGauges& gauges);
    int outstanding() const { return *m_outstanding; }

private:
    EngineController& m_engine;
    std::shared_ptr<ServingMetrics> m_metrics;
    const int m_maxOutstanding;
    std::shared_ptr<std::atomic<int>> m_outstanding = std::make_shared<std::atomic<int>>(0);

    mutable std::mutex m_mutex;
    EngineGauges m_gauges;
    mutable std::shared_ptr<const CoupletGenerator> m_modelOf;   // the generator m_model was made for
    mutable std::shared_ptr<const ServedModel> m_model;
};

} // namespace couplet
