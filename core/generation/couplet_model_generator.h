#pragma once

#include "couplet_generator.h"
#include "couplet_model.h"

#include <memory>

namespace couplet {

// The trained CoupletModel as the request layer's CoupletGenerator: the one
// real implementation, which every door (CLI, editor, bulk rows, workers,
// HTTP) reaches through CandidateGroup.
class CoupletModelGenerator : public CoupletGenerator {
public:
    explicit CoupletModelGenerator(std::shared_ptr<const CoupletModel> model) : m_model(std::move(model)) {}
    // A generator over a model the caller keeps alive for as long as the generator.
    static CoupletModelGenerator of(const CoupletModel& model);

    std::string validate(const GenerationSpec& spec) const override { return m_model->validate(spec); }
    std::unique_ptr<TokenPolicy> makePolicy(const GenerationSpec& spec, int index) const override
    {
        return m_model->makePolicy(spec, index);
    }
    Couplet coupletOf(const TokenPolicy& policy) const override { return CoupletModel::coupletOf(policy); }
    void rerank(const GenerationSpec& spec, std::vector<Couplet>& candidates) const override
    {
        m_model->rerank(spec, candidates);
    }
    std::unique_ptr<Decoder> makeDecoder() const override { return m_model->makeDecoder(); }
    std::string deviceName() const override { return m_model->deviceName(); }
    std::string summary() const override { return m_model->summary(); }
    void setThreads(int threads) override;

    const CoupletModel& model() const { return *m_model; }

private:
    std::shared_ptr<const CoupletModel> m_model;
};

} // namespace couplet
