#pragma once

// The shipped model (resources/models/default, CPU, two threads), loaded once
// per test program, and couplets sampled from it through the scheduler the
// way every door samples them: for tests that measure what the trained
// model writes under one setting against another.

#include "couplet_model.h"
#include "generation_spec.h"

#include <memory>
#include <vector>

namespace couplet::testing {

std::shared_ptr<const CoupletModel> shippedModel();

// `n` couplets of `spec`, one policy each, seeded 1..n (the spec's own seed
// is replaced), in the order of their seeds.
std::vector<Couplet> sampleShipped(GenerationSpec spec, int n);

} // namespace couplet::testing
