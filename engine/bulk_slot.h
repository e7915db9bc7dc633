#pragma once

#include "bulk_runner.h"

#include <QElapsedTimer>

#include <functional>
#include <memory>
#include <optional>

namespace couplet {

// The engine's one bulk job, running or parked. Parked is a job a model
// reload stopped: its rows in flight were dropped (they stay pending in the
// journal), it is reported Paused, and resume() reopens it with resume on the
// new model. Every change goes out through `emit`; lives on the engine thread.
class BulkSlot {
public:
    static constexpr int kStatusIntervalMs = 250;
    static constexpr int kSettleIntervalMs = 20;
    using Emit = std::function<void(const BulkStatus&)>;
    using Observer = std::function<void(const SequenceResult&)>;

    BulkSlot(Emit emit, Observer observer);
    ~BulkSlot();

    // Opens and starts a job (a parked one is cancelled first); "" or why not.
    QString start(quint64 jobId, const BulkRequest& request, Scheduler& scheduler, const CoupletGenerator& generator);
    // A parked job reopens on `scheduler` and `generator` (the model in
    // `modelDir`); false when nothing runs afterwards.
    bool resume(quint64 jobId, Scheduler& scheduler, const CoupletGenerator& generator, const QString& modelDir);
    void pause(quint64 jobId);
    void cancel(quint64 jobId);
    void cancelAll();
    // Before the scheduler goes (a model reload).
    void park();
    // Before the scheduler is destroyed, without a word (the engine closes).
    void drop() { m_runner.reset(); }

    // Running, or paused with rows in flight.
    bool wantsStep() const { return m_runner && m_runner->wantsStep(); }
    // How long the next step may wait: a job that only waits for its posters
    // is looked at every kSettleIntervalMs, not in a loop.
    int msUntilReady() const { return m_runner && m_runner->settling() ? kSettleIntervalMs : 0; }
    bool isParked(quint64 jobId) const { return m_parked && m_parked->jobId == jobId; }
    // Between scheduler steps: tops up the rows in flight and writes the
    // finished ones; the status goes out a few times a second and at the end.
    void step();

private:
    void emitStatus(const QString& error = {});
    void cancelParked();

    Emit m_emit;
    Observer m_observer;
    std::unique_ptr<BulkRunner> m_runner;
    std::optional<BulkStatus> m_parked;
    BulkRequest m_parkedRequest;
    QElapsedTimer m_sinceStatus;
};

} // namespace couplet
