#include "bulk_slot.h"

namespace couplet {

BulkSlot::BulkSlot(Emit emit, Observer observer) : m_emit(std::move(emit)), m_observer(std::move(observer))
{
    m_sinceStatus.start();
}

BulkSlot::~BulkSlot() = default;

QString BulkSlot::start(quint64 jobId, const BulkRequest& request, Scheduler& scheduler, const CoupletGenerator& generator)
{
    // The job it replaces (parked, or paused with nothing in flight) is told so.
    cancelParked();
    if (m_runner && !m_runner->isOver()) {
        m_runner->cancel();
        emitStatus();
    }
    try {
        m_runner.reset();
        m_runner = std::make_unique<BulkRunner>(jobId, request, scheduler, generator, m_observer);
    } catch (const std::exception& e) {
        m_runner.reset();
        return QString::fromStdString(e.what());
    }
    emitStatus();
    return {};
}

bool BulkSlot::resume(quint64 jobId, Scheduler& scheduler, const CoupletGenerator& generator, const QString& modelDir)
{
    if (m_runner && m_runner->jobId() == jobId) {
        m_runner->resume();
        emitStatus();
        return true;
    }
    if (!isParked(jobId))
        return false;
    BulkStatus s = *m_parked;
    m_parked.reset();
    m_parkedRequest.modelDir = modelDir;
    try {
        m_runner = std::make_unique<BulkRunner>(jobId, m_parkedRequest, scheduler, generator, m_observer);
    } catch (const std::exception& e) {
        s.progress.state = BulkState::Failed;
        s.error = QString::fromStdString(e.what());
        m_emit(s);
        return false;
    }
    emitStatus();
    return true;
}

void BulkSlot::pause(quint64 jobId)
{
    if (m_runner && m_runner->jobId() == jobId) {
        m_runner->pause();
        emitStatus();
    }
}

void BulkSlot::cancel(quint64 jobId)
{
    if (isParked(jobId)) {
        cancelParked();
    } else if (m_runner && m_runner->jobId() == jobId) {
        m_runner->cancel();
        emitStatus();
    }
}

void BulkSlot::cancelAll()
{
    cancelParked();
    if (m_runner) {
        m_runner->cancel();
        emitStatus();
    }
}

void BulkSlot::park()
{
    if (!m_runner)
        return;
    if (!m_runner->isOver()) {
        m_runner->pause();
        BulkStatus s = m_runner->status();
        s.progress.state = BulkState::Paused;
        s.progress.inFlight = 0;
        s.progress.rowsPerSecond = 0;
        s.progress.etaSeconds = -1;
        m_parked = s;
        m_parkedRequest = m_runner->request();
        m_parkedRequest.resume = true;
    }
    // The job drops its rows in flight from the scheduler that is about to go.
    m_runner.reset();
    if (m_parked)
        m_emit(*m_parked);
}

void BulkSlot::cancelParked()
{
    if (!m_parked)
        return;
    BulkStatus s = *m_parked;
    m_parked.reset();
    s.progress.state = BulkState::Cancelled;
    m_emit(s);
}

void BulkSlot::step()
{
    if (!wantsStep())
        return;
    bool more = false;
    try {
        more = m_runner->step();
    } catch (const std::exception& e) {
        emitStatus(QString::fromStdString(e.what()));
        m_runner.reset();
        return;
    }
    // The last status of a pause must show the rows in flight drained.
    if (!more || !m_runner->wantsStep() || m_sinceStatus.elapsed() >= kStatusIntervalMs)
        emitStatus();
}

void BulkSlot::emitStatus(const QString& error)
{
    m_sinceStatus.restart();
    if (!m_runner)
        return;
    BulkStatus s = m_runner->status();
    s.error = error;
    if (!error.isEmpty())
        s.progress.state = BulkState::Failed;
    m_emit(s);
}

} // namespace couplet
