#pragma once

#include "cluster_bench_decoder.h"
#include "fake_decoder.h"
#include "row_generator.h"
#include "scheduler.h"

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <utility>

namespace couplet::bench {

// A worker's RowGenerator for the simulated cluster: the real Scheduler over
// the tests' FakeDecoder with a fixed step time; every row is one sequence of
// `tokens` tokens. Results carry a dummy couplet.
class FixedStepRowGenerator : public RowGenerator {
public:
    FixedStepRowGenerator(int maxBatch, std::chrono::microseconds step, int tokens);
    ~FixedStepRowGenerator() override;

    void submit(const PromptRow& row, std::function<void(RowResult)> done) override;
    bool poll() override;
    void cancelAll() override;

private:
    test::FakeDecoder m_fake;
    FixedStepDecoder m_decoder;
    std::unique_ptr<Scheduler> m_scheduler;
    int m_tokens;
    std::deque<std::pair<std::function<void(RowResult)>, RowResult>> m_finished;
};

} // namespace couplet::bench
