#pragma once

#include "decoder.h"

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace couplet::testing {

// Forwards to the real decoder, but while closed each decode() waits at the
// gate, so a test can hold the engine mid-couplet (requests running, not
// finished) for as long as it needs and then let it go.
class GatedDecoder : public Decoder {
public:
    explicit GatedDecoder(Decoder& inner) : m_inner(inner) {}

    // Holds the next decode(), or the one after `passes` more have run.
    void close(int passes = 0)
    {
        std::lock_guard lock(m_mutex);
        m_open = false;
        m_passes = passes;
    }
    void open()
    {
        {
            std::lock_guard lock(m_mutex);
            m_open = true;
        }
        m_changed.notify_all();
    }
    // True once a decode() waits at the closed gate.
    bool waitUntilHeld(std::chrono::seconds timeout)
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, timeout, [&] { return m_held > 0; });
    }

    int vocabSize() const override { return m_inner.vocabSize(); }
    int maxSequenceLength() const override { return m_inner.maxSequenceLength(); }
    int rowCapacity() const override { return m_inner.rowCapacity(); }
    void reserveRows(int rows) override { m_inner.reserveRows(rows); }
    void prefill(std::span<const PrefillItem> items, std::vector<float>& logits) override { m_inner.prefill(items, logits); }
    void decode(std::span<const DecodeItem> items, std::vector<float>& logits) override
    {
        {
            std::unique_lock lock(m_mutex);
            if (m_passes > 0) {
                --m_passes;
            } else {
                ++m_held;
                m_changed.notify_all();
                m_changed.wait(lock, [&] { return m_open; });
                --m_held;
            }
        }
        m_inner.decode(items, logits);
    }
    void copyRow(int from, int to, int length) override { m_inner.copyRow(from, to, length); }

private:
    Decoder& m_inner;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open = true;
    int m_held = 0;
    int m_passes = 0;
};

} // namespace couplet::testing
