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
    explicit CoupletModelGenerator(std::shared_ptr<const CoupletModel> model);
    // A generator over a model the caller keeps alive for as long as the generator.
    static CoupletModelGenerator of(const CoupletModel& model);

    std::string validate(const GenerationSpec& spec) const override { return m_model->validate(spec); }
    // The model's policy; a Simplified couplet (the default script) never
    // writes the vocabulary's Traditional and variant forms (门 not 門, 发
    // not 髪) unless the prompt typed them (simplified_forms.h).
    std::unique_ptr<TokenPolicy> makePolicy(const GenerationSpec& spec, int index) const override;
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
    std::shared_ptr<const std::vector<int>> m_nonSimplified;   // null: OpenCC's tables missing
};

} // namespace couplet
