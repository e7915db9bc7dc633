#pragma once

#include "couplet_constraints.h"
#include "generation_spec.h"
#include "sampler.h"
#include "token_policy.h"

#include <string>
#include <vector>

namespace couplet {

class CoupletModelImpl;

// One candidate couplet being written: the prompt, the constraints that mask
// each step, the sampler, and the text streamed so far. Text is always
// "上联\n下联\n横批" (an Upper-mode policy starts by emitting the given 上联).
class CoupletPolicy : public TokenPolicy {
public:
    CoupletPolicy(const CoupletModelImpl& model, std::vector<int> prompt, ConstraintSpec constraints,
                  const SamplingSettings& sampling, std::vector<int> themeTokens);

    std::vector<int> promptTokens() const override { return m_prompt; }
    int choose(std::span<const float> logits) override;
    bool finished() const override { return m_constraints.done(); }
    const std::vector<int>& generated() const override { return m_generated; }
    std::string takeTextDelta() override;
    double logProb() const override { return m_logProb; }

    Couplet couplet() const;

private:
    const CoupletModelImpl& m_model;
    std::vector<int> m_prompt;
    CoupletConstraints m_constraints;
    Sampler m_sampler;
    std::vector<int> m_themeTokens; // keywords: favoured in the 横批
    std::vector<float> m_bias;      // [vocab] while writing the 横批, else empty
    std::vector<int> m_generated;
    std::string m_pending;          // text not yet taken
    double m_logProb = 0;
};

} // namespace couplet
