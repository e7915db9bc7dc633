#pragma once

#include "couplet_model.h"
#include "scheduler.h"

#include <functional>
#include <string_view>
#include <vector>

namespace couplet {

using CandidateDelta = std::function<void(int candidate, std::string_view text)>;

// Writes spec.candidates couplets in one batch on a private scheduler and
// returns them best first (by the model's mean log-probability). Throws
// std::invalid_argument when the spec is unusable.
std::vector<Couplet> generateCouplets(const CoupletModel& model, Decoder& decoder, const GenerationSpec& spec,
                                      const CandidateDelta& onDelta = {});

// Runs step() until the scheduler has no work left.
void runToCompletion(Scheduler& scheduler);

} // namespace couplet
