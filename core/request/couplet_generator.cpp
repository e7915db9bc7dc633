#include "couplet_generator.h"

#include <algorithm>

namespace couplet {

int sampledCandidates(const GenerationSpec& spec)
{
    const int asked = std::max(1, spec.candidates);
    if (spec.bestOf > 0) return std::max(asked, std::min(kMaxSampledCandidates, spec.bestOf));
    // Greedy candidates are all the same couplet: nothing to choose from.
    if (!spec.rerank || spec.sampling.greedy) return asked;
    return std::max(asked, std::min(kMaxSampledCandidates, std::max(kRerankPool, kRerankFactor * asked)));
}

} // namespace couplet
