#pragma once

#include "engine_backend.h"

#include <atomic>
#include <memory>

namespace couplet::test {

// An EngineBackend over the scheduler tests' FakeDecoder and FakePolicy.
// Keywords choose the behaviour: "fail" makes the policy throw at its third
// token, "bad" fails validation. Each candidate writes spec.length tokens (20
// when free); decode() sleeps `stepDelayMs` so tests can act mid-stream.
class FakeBackend : public EngineBackend {
public:
    explicit FakeBackend(int stepDelayMs = 0) : m_stepDelayMs(stepDelayMs) {}

    std::unique_ptr<Decoder> makeDecoder() const override;
    std::string validate(const GenerationSpec& spec) const override;
    std::unique_ptr<TokenPolicy> makePolicy(const GenerationSpec& spec, int index) const override;
    Couplet coupletOf(const TokenPolicy& policy) const override;
    std::string deviceName() const override { return "fake"; }
    std::string summary() const override { return "fake backend for tests"; }
    void setThreads(int threads) override { threadsSet = threads; }

    std::atomic<int> threadsSet{-1};

private:
    int m_stepDelayMs;
};

BackendLoader fakeLoader(std::shared_ptr<FakeBackend> backend);

} // namespace couplet::test
