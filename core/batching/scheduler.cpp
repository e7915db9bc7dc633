#include "scheduler.h"

#include "callback_queue.h"
#include "request_queue.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace couplet {

namespace {

// Sets a flag for the lifetime of a scope, exceptions included.
struct FlagGuard {
    explicit FlagGuard(bool& flag) : m_flag(flag) { m_flag = true; }
    ~FlagGuard() { m_flag = false; }
    bool& m_flag;
};

// How a sequence ended inside a step; applied after the whole batch is handled
// so that compaction never moves a row that is still being processed.
struct Ending {
    int row = 0;
    RequestStatus status = RequestStatus::Done;
    std::string error;
};

std::string lowered(int fit, int wanted)
{
    return "GPU memory holds only " + std::to_string(fit) + " sequences; batch size lowered from "
        + std::to_string(wanted) + " to " + std::to_string(fit);
}

SchedulerSettings sanitized(SchedulerSettings s)
{
    s.maxBatch = std::max(1, s.maxBatch);
    s.maxWaitMs = std::max(0, s.maxWaitMs);
    s.maxStepTokens = std::max(1, s.maxStepTokens);
    return s;
}

} // namespace

struct Scheduler::Impl {
    Impl(Decoder& d, SchedulerSettings s, TimeSource t)
        : decoder(d), now(std::move(t)), requested(sanitized(s)), active(requested)
    {
    }

    Decoder& decoder;
    TimeSource now;
    SchedulerSettings requested; // latest setSettings(), applied by the next step
    SchedulerSettings active;
    int reservedRows = 0;        // KV rows the decoder holds for us
    std::string warning;
    RequestId nextId = 1;
    std::uint64_t nextAdmitOrder = 1;
    RequestQueue queue;
    // Running sequences; the index is the KV row, so rows stay 0..n-1.
    std::vector<SequencePtr> rows;
    CallbackQueue callbacks;
    bool stepping = false;
    int finishedCount = 0;
    // Reused step to step, so that a step allocates nothing at a steady batch.
    std::vector<float> logits;
    std::vector<DecodeItem> decodeItems;
    std::vector<std::string> choiceErrors;

    // Slots usable now: 0 when the decoder holds no row at all.
    int limit() const { return std::min(active.maxBatch, reservedRows); }
    int running() const { return static_cast<int>(rows.size()); }
    int runningWith(Priority p) const
    {
        return static_cast<int>(std::count_if(rows.begin(), rows.end(),
                                              [p](const SequencePtr& s) { return s->priority == p; }));
    }

    void reserve(int wanted);
    void settleFor(int rowsThatFit, int wanted);
    void failWaiting(const std::string& message);
    void applySettings();
    void emitDelta(ScheduledSequence& s);
    void finish(SequencePtr s, RequestStatus status, std::string error = {});
    SequencePtr takeRow(int row);
    void endRows(std::vector<Ending> endings);
    void failRows(int from, const std::string& message);
    void chooseAll(int firstRow, int count, const std::vector<float>& logits, std::vector<Ending>& endings);
    std::optional<Ending> afterChoice(int row, const std::string& error);
    int advanceDecoding();
    int reservedBulkSlots(int slots) const;
    int interactiveCapacity(int slots) const;
    void preemptForInteractive(int slots);
    void preemptLatestBulk();
    bool admissible(SequencePtr& s);
    std::vector<SequencePtr> selectAdmissions(int slots);
    void admitPending(StepStats& stats);
    void prefillAdmitted(std::vector<SequencePtr> admitted, StepStats& stats);
    bool logitsComplete(const std::vector<float>& logits, std::size_t items, int firstRow);
    void cancelMatching(const std::function<bool(const ScheduledSequence&)>& match);
};

// Asks the decoder for `wanted` rows; when the device cannot hold them, tries
// fewer (each try fewer than the last, never fewer than the sequences running)
// and says so. When not even that fits, the rows the decoder really holds are
// kept; with none, waiting requests fail at the next admission.
void Scheduler::Impl::reserve(int wanted)
{
    int rowsToTry = wanted;
    while (true) {
        try {
            decoder.reserveRows(rowsToTry);
            reservedRows = rowsToTry;
            if (rowsToTry < wanted) warning = lowered(rowsToTry, wanted);
            return;
        } catch (const OutOfDeviceMemory& oom) {
            const int next = std::max({1, running(), std::min(oom.rowsThatFit, rowsToTry - 1)});
            if (next >= rowsToTry) break;
            rowsToTry = next;
        }
    }
    reservedRows = std::min(wanted, decoder.rowCapacity());
    warning = reservedRows > 0 ? lowered(reservedRows, wanted)
                               : std::string("device memory cannot hold a single sequence; no sequence can run");
}

// After a prefill or decode ran out of memory: use fewer of the rows the
// decoder already holds (never fewer than one).
void Scheduler::Impl::settleFor(int rowsThatFit, int wanted)
{
    const int fit = std::min(reservedRows, std::max({1, running(), rowsThatFit}));
    warning = lowered(fit, wanted);
    reservedRows = fit;
}

void Scheduler::Impl::applySettings()
{
    const bool grew = requested.maxBatch > active.maxBatch;
    active = requested;
    if (grew && active.maxBatch > reservedRows) reserve(active.maxBatch);
}

void Scheduler::Impl::emitDelta(ScheduledSequence& s)
{
    std::string text = s.policy->takeTextDelta();
    if (text.empty() || !s.onDelta) return;
    callbacks.post([callback = s.onDelta, id = s.id, text = std::move(text)] { callback(id, text); });
}

void Scheduler::Impl::finish(SequencePtr s, RequestStatus status, std::string error)
{
    s->status = status;
    SequenceResult result = s->result(std::move(error), now());
    ++finishedCount;
    if (s->onFinish)
        callbacks.post([callback = std::move(s->onFinish), r = std::move(result)] { callback(r); });
}

// Frees a row and keeps the running rows compact by moving the last one into it.
SequencePtr Scheduler::Impl::takeRow(int row)
{
    SequencePtr taken = std::move(rows[row]);
    const int last = running() - 1;
    if (row != last) {
        decoder.copyRow(last, row, rows[last]->position);
        rows[row] = std::move(rows[last]);
    }
    rows.pop_back();
    return taken;
}

// Highest row first: every row above the one being freed is then one that stays.
void Scheduler::Impl::endRows(std::vector<Ending> endings)
{
    std::sort(endings.begin(), endings.end(), [](const Ending& a, const Ending& b) { return a.row > b.row; });
    for (auto& e : endings) finish(takeRow(e.row), e.status, std::move(e.error));
}

void Scheduler::Impl::failRows(int from, const std::string& message)
{
    std::vector<Ending> endings;
    for (int row = from; row < running(); ++row) endings.push_back({row, RequestStatus::Failed, message});
    endRows(std::move(endings));
}

bool Scheduler::Impl::logitsComplete(const std::vector<float>& logits, std::size_t items, int firstRow)
{
    const std::size_t expected = items * static_cast<std::size_t>(decoder.vocabSize());
    if (logits.size() >= expected) return true;
    failRows(firstRow, "decoder returned " + std::to_string(logits.size()) + " logits, expected "
                           + std::to_string(expected));
    return false;
}

// Each row's next token from its logits, rows firstRow..firstRow+count-1
// (logits in that order). The policies choose in parallel, on the decoder's
// threads: each is used by one thread and shares only read-only model data.
// Callbacks and endings follow on this thread, in row order.
void Scheduler::Impl::chooseAll(int firstRow, int count, const std::vector<float>& logits, std::vector<Ending>& endings)
{
    const auto vocab = static_cast<std::size_t>(decoder.vocabSize());
    choiceErrors.assign(static_cast<std::size_t>(count), std::string());
    decoder.parallelFor(count, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            ScheduledSequence& s = *rows[static_cast<std::size_t>(firstRow + i)];
            std::span<const float> rowLogits(logits.data() + static_cast<std::size_t>(i) * vocab, vocab);
            try {
                s.pendingToken = s.policy->choose(rowLogits);
            } catch (const std::exception& e) {
                choiceErrors[static_cast<std::size_t>(i)] = e.what();
                if (choiceErrors[static_cast<std::size_t>(i)].empty()) choiceErrors[static_cast<std::size_t>(i)] = "token policy failed";
            } catch (...) {
                choiceErrors[static_cast<std::size_t>(i)] = "token policy failed with an unknown error";
            }
        }
    });
    for (int i = 0; i < count; ++i)
        if (auto ending = afterChoice(firstRow + i, choiceErrors[static_cast<std::size_t>(i)]))
            endings.push_back(std::move(*ending));
}

std::optional<Ending> Scheduler::Impl::afterChoice(int row, const std::string& error)
{
    ScheduledSequence& s = *rows[row];
    if (!error.empty()) return Ending{row, RequestStatus::Failed, error};
    if (!s.firstToken) s.firstToken = now();
    emitDelta(s);
    if (s.policy->finished()) return Ending{row, RequestStatus::Done, {}};
    // The pending token would be written at `position`, past the row's end.
    if (s.position >= decoder.maxSequenceLength())
        return Ending{row, RequestStatus::Failed,
                      "sequence reached the model's maximum length of "
                          + std::to_string(decoder.maxSequenceLength()) + " tokens without finishing"};
    return std::nullopt;
}

// One batched decode over rows 0..n-1, then one choice per row. Returns the
// number of sequences advanced.
int Scheduler::Impl::advanceDecoding()
{
    if (rows.empty()) return 0;
    std::vector<DecodeItem>& items = decodeItems;
    items.clear();
    for (int row = 0; row < running(); ++row)
        items.push_back({row, rows[row]->pendingToken, rows[row]->position});
    try {
        decoder.decode(items, logits);
    } catch (const OutOfDeviceMemory& oom) {
        failRows(0, "decode failed: out of device memory");
        settleFor(std::min(oom.rowsThatFit, static_cast<int>(items.size()) - 1), limit());
        return 0;
    } catch (const std::exception& e) {
        failRows(0, std::string("decode failed: ") + e.what());
        return 0;
    }
    if (!logitsComplete(logits, items.size(), 0)) return 0;
    for (int row = 0; row < running(); ++row) ++rows[row]->position;
    std::vector<Ending> endings;
    chooseAll(0, running(), logits, endings);
    endRows(std::move(endings));
    return static_cast<int>(items.size());
}

// Bulk keeps one slot while interactive work runs, so a steady stream of
// interactive requests cannot stop a bulk job; with a single slot that is
// impossible and interactive wins.
int Scheduler::Impl::reservedBulkSlots(int slots) const
{
    return slots > 1 ? 1 : 0;
}

int Scheduler::Impl::interactiveCapacity(int slots) const
{
    const bool bulkWork = queue.bulkCount() > 0 || runningWith(Priority::Bulk) > 0;
    return bulkWork ? slots - reservedBulkSlots(slots) : slots;
}

void Scheduler::Impl::preemptLatestBulk()
{
    int victim = -1;
    for (int row = 0; row < running(); ++row)
        if (rows[row]->priority == Priority::Bulk
            && (victim < 0 || rows[row]->admitOrder > rows[victim]->admitOrder))
            victim = row;
    if (victim < 0) return;
    SequencePtr s = takeRow(victim);
    s->status = RequestStatus::Paused;
    ++s->preemptions;
    // Its policy keeps the tokens chosen so far; re-admission prefills them.
    queue.pushFront(std::move(s));
}

// Frees slots for the interactive requests this step can start, pausing the
// most recently admitted bulk sequences but never the reserved bulk slot.
void Scheduler::Impl::preemptForInteractive(int slots)
{
    const int room = interactiveCapacity(slots) - runningWith(Priority::Interactive);
    if (room <= 0 || queue.interactiveCount() == 0) return;
    int wanted = 0;
    int budget = active.maxStepTokens;
    for (int length : queue.interactiveLengths(room)) {
        if (length > decoder.maxSequenceLength()) continue; // fails at admission, needs no slot
        if (wanted > 0 && length > budget) break;
        budget -= length;
        ++wanted;
    }
    int bulkRunning = runningWith(Priority::Bulk);
    while (slots - running() < wanted && bulkRunning > reservedBulkSlots(slots)) {
        preemptLatestBulk();
        --bulkRunning;
    }
}

bool Scheduler::Impl::admissible(SequencePtr& s)
{
    const int length = s->prefillLength();
    if (length <= decoder.maxSequenceLength()) return true;
    finish(std::move(s), RequestStatus::Failed,
           "prompt of " + std::to_string(length) + " tokens is longer than the model's maximum of "
               + std::to_string(decoder.maxSequenceLength()) + " tokens");
    return false;
}

// Interactive first (up to its capacity), then bulk, within the free slots and
// the prompt-token budget; the first admission may exceed the budget so that a
// long prompt still runs.
std::vector<SequencePtr> Scheduler::Impl::selectAdmissions(int slots)
{
    std::vector<SequencePtr> admitted;
    int free = slots - running();
    int budget = active.maxStepTokens;
    int interactiveRoom = interactiveCapacity(slots) - runningWith(Priority::Interactive);
    while (free > 0 && interactiveRoom > 0) {
        const auto length = queue.interactiveHeadLength();
        if (!length || (*length > budget && !admitted.empty())) break;
        SequencePtr s = queue.popInteractive();
        if (!admissible(s)) continue;
        budget -= *length;
        --free;
        --interactiveRoom;
        admitted.push_back(std::move(s));
    }
    if (free <= 0) return admitted;
    for (auto& s : queue.takeBulk(free, std::max(0, budget), admitted.empty()))
        if (admissible(s)) admitted.push_back(std::move(s));
    return admitted;
}

void Scheduler::Impl::failWaiting(const std::string& message)
{
    for (auto& s : queue.removeIf([](const ScheduledSequence&) { return true; }))
        finish(std::move(s), RequestStatus::Failed, message);
}

void Scheduler::Impl::admitPending(StepStats& stats)
{
    const int slots = limit();
    if (slots == 0) {
        // Not one KV row could be reserved: waiting would be forever.
        failWaiting("out of device memory: " + warning);
        return;
    }
    preemptForInteractive(slots);
    auto admitted = selectAdmissions(slots);
    if (!admitted.empty()) prefillAdmitted(std::move(admitted), stats);
}

// One batched prefill for every admitted sequence, in rows after the running
// ones, then each sequence's first token.
void Scheduler::Impl::prefillAdmitted(std::vector<SequencePtr> admitted, StepStats& stats)
{
    const int firstRow = running();
    std::vector<PrefillItem> items;
    for (std::size_t i = 0; i < admitted.size(); ++i)
        items.push_back({firstRow + static_cast<int>(i), admitted[i]->prefillTokens()});
    std::string error;
    try {
        decoder.prefill(items, logits);
    } catch (const OutOfDeviceMemory& oom) {
        // Nothing was chosen yet: put them back and run fewer at once.
        const int tried = firstRow + static_cast<int>(items.size());
        settleFor(std::min(oom.rowsThatFit, tried - 1), limit());
        for (auto it = admitted.rbegin(); it != admitted.rend(); ++it) queue.pushFront(std::move(*it));
        return;
    } catch (const std::exception& e) {
        error = std::string("prefill failed: ") + e.what();
    }
    const auto t = now();
    for (std::size_t i = 0; i < admitted.size(); ++i) {
        auto& s = admitted[i];
        s->position = static_cast<int>(items[i].tokens.size());
        s->status = RequestStatus::Running;
        s->admitOrder = nextAdmitOrder++;
        if (!s->admitted) s->admitted = t;
        stats.prefillTokens += s->position;
        rows.push_back(std::move(s));
    }
    stats.prefilled = static_cast<int>(items.size());
    if (!error.empty()) {
        failRows(firstRow, error);
        return;
    }
    if (!logitsComplete(logits, items.size(), firstRow)) return;
    std::vector<Ending> endings;
    chooseAll(firstRow, static_cast<int>(items.size()), logits, endings);
    endRows(std::move(endings));
}

void Scheduler::Impl::cancelMatching(const std::function<bool(const ScheduledSequence&)>& match)
{
    for (int row = running() - 1; row >= 0; --row)
        if (match(*rows[row])) finish(takeRow(row), RequestStatus::Cancelled);
    for (auto& s : queue.removeIf(match)) finish(std::move(s), RequestStatus::Cancelled);
    callbacks.drain();
}

Scheduler::Scheduler(Decoder& decoder, SchedulerSettings settings, TimeSource now)
    : m_impl(std::make_unique<Impl>(decoder, settings, std::move(now)))
{
    m_impl->reserve(m_impl->active.maxBatch);
}

// Requests still queued or running are dropped without callbacks: their
// owners may already be half destroyed. Call cancelAll() first to hear of them.
Scheduler::~Scheduler() = default;

RequestId Scheduler::submit(SequenceRequest request)
{
    if (!request.policy) throw std::invalid_argument("Scheduler::submit: request has no TokenPolicy");
    auto s = std::make_unique<ScheduledSequence>();
    s->id = m_impl->nextId++;
    s->priority = request.priority;
    s->jobId = request.jobId;
    s->policy = std::move(request.policy);
    s->onDelta = std::move(request.onDelta);
    s->onFinish = std::move(request.onFinish);
    s->promptTokens = static_cast<int>(s->policy->promptTokens().size());
    s->submitted = m_impl->now();
    const RequestId id = s->id;
    m_impl->queue.push(std::move(s));
    return id;
}

void Scheduler::cancel(RequestId id)
{
    m_impl->cancelMatching([id](const ScheduledSequence& s) { return s.id == id; });
}

void Scheduler::cancelJob(std::uint64_t jobId)
{
    m_impl->cancelMatching([jobId](const ScheduledSequence& s) { return s.jobId == jobId; });
}

void Scheduler::cancelAll()
{
    m_impl->cancelMatching([](const ScheduledSequence&) { return true; });
}

void Scheduler::setSettings(const SchedulerSettings& settings)
{
    m_impl->requested = sanitized(settings);
}

SchedulerSettings Scheduler::settings() const
{
    return m_impl->requested;
}

bool Scheduler::hasWork() const
{
    return !m_impl->rows.empty() || !m_impl->queue.empty();
}

int Scheduler::msUntilReady() const
{
    const auto& d = *m_impl;
    if (!d.rows.empty() || d.queue.empty()) return 0;
    // A pending increase will be reserved by the next step; otherwise any
    // out-of-memory limit still holds.
    const int slots = d.requested.maxBatch > d.active.maxBatch ? d.requested.maxBatch
                                                              : std::min(d.requested.maxBatch, d.limit());
    if (d.queue.size() >= slots) return 0;
    const double left = d.requested.maxWaitMs - msBetween(*d.queue.oldestSubmitted(), d.now());
    if (left <= 0) return 0;
    return std::min(d.requested.maxWaitMs, static_cast<int>(std::ceil(left)));
}

StepStats Scheduler::step()
{
    auto& d = *m_impl;
    // step() from a callback does nothing: the caller's loop steps again.
    if (d.stepping || d.callbacks.draining()) return {};
    const auto start = d.now();
    StepStats stats;
    {
        FlagGuard guard(d.stepping);
        d.finishedCount = 0;
        d.applySettings();
        if (d.queue.interactiveCount() > 0) {
            // Interactive work is prefilled before the decode pass, so its
            // first token does not wait behind a whole step of bulk work.
            d.admitPending(stats);
            stats.decoded = d.advanceDecoding();
        } else {
            stats.decoded = d.advanceDecoding();
            d.admitPending(stats);
        }
        stats.finished = d.finishedCount;
        stats.running = d.running();
        stats.waiting = d.queue.size();
        stats.stepMs = msBetween(start, d.now());
    }
    d.callbacks.drain();
    return stats;
}

int Scheduler::runningCount() const
{
    return m_impl->running();
}

int Scheduler::waitingCount() const
{
    return m_impl->queue.size();
}

int Scheduler::effectiveMaxBatch() const
{
    return m_impl->limit();
}

std::string Scheduler::lastWarning() const
{
    return m_impl->warning;
}

} // namespace couplet
