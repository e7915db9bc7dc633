#pragma once

#include "row_generator.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <set>

namespace couplet::test {

// Finishes submitted rows a few per poll() in a shuffled order, like a
// scheduler whose sequences end at different steps. The "couplet" is made
// from the keywords so that the output can be checked row by row.
class FakeRowGenerator : public RowGenerator {
public:
    explicit FakeRowGenerator(std::uint32_t seed = 1, int perPoll = 3)
        : m_rng(seed)
        , m_perPoll(perPoll)
    {
    }

    void submit(const PromptRow& row, std::function<void(RowResult)> done) override
    {
        m_pending.push_back({row.spec, std::move(done)});
        maxInFlight = std::max(maxInFlight, m_pending.size());
        ++submitted;
    }

    bool poll() override
    {
        bool any = false;
        for (int i = 0; i < m_perPoll && !m_pending.empty(); ++i) {
            std::uniform_int_distribution<std::size_t> pick(0, m_pending.size() - 1);
            const std::size_t k = pick(m_rng);
            Pending p = std::move(m_pending[k]);
            m_pending.erase(m_pending.begin() + static_cast<std::ptrdiff_t>(k));
            RowResult result = resultFor(p.spec);
            // The runner-ups: the same couplet marked 二, 三 (the same for the same keywords).
            if (alternatives && result.status == RowStatus::Ok)
                for (const char* mark : {"二", "三"}) {
                    Couplet c = result.couplet;
                    c.upper += mark;
                    c.lower += mark;
                    result.alternatives.push_back(c);
                }
            p.done(std::move(result));
            any = true;
        }
        return any;
    }

    void cancelAll() override { m_pending.clear(); }

    bool offerAlternatives() override
    {
        alternatives = canOfferAlternatives;
        return canOfferAlternatives;
    }
    bool canOfferAlternatives = true; // false: as rows queued to workers
    bool alternatives = false;

    std::string validate(const GenerationSpec& spec) const override
    {
        return spec.keywords.find("①") != std::string::npos ? "the model does not know ①" : "";
    }

    static RowResult resultFor(const GenerationSpec& spec)
    {
        RowResult r;
        r.model = "fake";
        r.latencyMs = 1;
        r.couplet.seed = spec.sampling.seed;
        if (spec.keywords == "失败") {
            r.status = RowStatus::Failed;
            r.error = "the decoder ran out of memory";
            return r;
        }
        r.couplet.upper = "上" + spec.keywords;
        r.couplet.lower = "下" + spec.keywords;
        r.couplet.hengpi = "万象更新";
        return r;
    }

    std::size_t inFlight() const { return m_pending.size(); }
    std::size_t maxInFlight = 0;
    std::size_t submitted = 0;

private:
    struct Pending {
        GenerationSpec spec;
        std::function<void(RowResult)> done;
    };
    std::deque<Pending> m_pending;
    std::mt19937 m_rng;
    int m_perPoll;
};

} // namespace couplet::test
