#pragma once

#include "generation_spec.h"

#include <vector>

namespace couplet {

class CoupletModel;

namespace bench {

// The requests a benchmark runs: fixed seeds so that every run (and every
// batch size) decodes the same couplets.
class Workload {
public:
    // Keyword prompts, 7 characters a line, one couplet each: the common case.
    static std::vector<GenerationSpec> uniform(const CoupletModel& model, int count);
    // Lines of 5, 7, 9 characters or free length, from keywords or a given
    // 上联, so that sequences in one batch finish at different steps.
    static std::vector<GenerationSpec> mixed(const CoupletModel& model, int count);
    // One short interactive prompt (seeded by `index`).
    static GenerationSpec interactive(const CoupletModel& model, int index);
};

} // namespace bench
} // namespace couplet
