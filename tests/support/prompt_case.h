#pragma once

#include "generation_spec.h"

#include <string>

namespace couplet::testing {

// One prompt of the quality tests, as a spec whose every sampled candidate
// comes back (no reranking: the reranker would hide what a rule let through).
struct PromptCase {
    PromptMode mode = PromptMode::Keywords;
    std::string text;
    int length = 7;

    GenerationSpec unrankedSpec(int candidates) const
    {
        GenerationSpec spec;
        spec.mode = mode;
        (mode == PromptMode::Keywords ? spec.keywords : mode == PromptMode::Upper ? spec.upper : spec.acrostic) = text;
        spec.length = length;
        spec.candidates = candidates;
        spec.rerank = false;
        return spec;
    }
};

} // namespace couplet::testing
