#pragma once

#include "engine_backend.h"

#include "row_generator.h"
#include "scheduler.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace couplet {

// The RowGenerator of the app's bulk jobs: each row becomes one Bulk-priority
// sequence in the engine's own scheduler, so interactive prompts typed
// meanwhile preempt it. The engine worker steps the scheduler; poll() only
// hands finished rows to the BulkJob, on the engine thread, outside the
// scheduler's step.
class BulkRowGenerator : public RowGenerator {
public:
    // Called for every finished row sequence, e.g. to feed the throughput meter.
    using Observer = std::function<void(const SequenceResult&)>;

    BulkRowGenerator(Scheduler& scheduler, const EngineBackend& backend, std::uint64_t jobId,
                     std::string modelName, Observer observer = {});
    ~BulkRowGenerator() override;

    void submit(const PromptRow& row, std::function<void(RowResult)> done) override;
    bool poll() override;
    void cancelAll() override;
    std::string validate(const GenerationSpec& spec) const override;

    int inFlight() const { return m_inFlight; }

private:
    struct Finished {
        std::function<void(RowResult)> done;
        RowResult result;
    };

    Scheduler& m_scheduler;
    const EngineBackend& m_backend;
    std::uint64_t m_jobId;
    std::string m_modelName;
    Observer m_observer;
    std::vector<Finished> m_finished;
    // Rows submitted before the last cancelAll() belong to an older
    // generation: their late onFinish calls are dropped.
    std::shared_ptr<int> m_generation = std::make_shared<int>(0);
    int m_inFlight = 0;
};

} // namespace couplet
