#pragma once

#include "loaded_model.h"

#include <atomic>
#include <memory>

namespace couplet::test {

// A CoupletGenerator over the scheduler tests' FakeDecoder and FakePolicy.
// Keywords choose the behaviour: "fail" makes the policy throw at its third
// token, "bad" fails validation. Each candidate writes spec.length tokens (20
// when free); decode() sleeps `stepDelayMs` so tests can act mid-stream.
class FakeBackend : public CoupletGenerator {
public:
    explicit FakeBackend(int stepDelayMs = 0) : m_stepDelayMs(stepDelayMs) {}

    std::unique_ptr<Decoder> makeDecoder() const override;
    std::string validate(const GenerationSpec& spec) const override;
    std::unique_ptr<TokenPolicy> makePolicy(const GenerationSpec& spec, int index) const override;
    Couplet coupletOf(const TokenPolicy& policy) const override;
    // By the model's score alone (the fake has no CoupletScorer).
    void rerank(const GenerationSpec& spec, std::vector<Couplet>& candidates) const override;
    std::string deviceName() const override { return "fake"; }
    std::string summary() const override { return "fake backend for tests"; }
    void setThreads(int threads) override { threadsSet = threads; }

    std::atomic<int> threadsSet{-1};

private:
    int m_stepDelayMs;
};

BackendLoader fakeLoader(std::shared_ptr<FakeBackend> backend);

} // namespace couplet::test
