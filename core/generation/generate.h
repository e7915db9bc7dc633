#pragma once

#include "candidate_group.h"
#include "couplet_model.h"
#include "scheduler.h"

#include <functional>
#include <string_view>
#include <vector>

namespace couplet {

using CandidateDelta = std::function<void(int candidate, std::string_view text)>;

// One CandidateGroup for `spec` on a private scheduler of `decoder`: the
// best spec.candidates of sampledCandidates(spec) couplets, reranked by
// CoupletScorer (each with its score parts) when spec.rerank, else by the
// model's mean log-probability. onDelta streams every sampled candidate, by
// its index among the sampled ones. Throws std::invalid_argument when the
// spec is unusable, std::runtime_error when a candidate failed.
std::vector<Couplet> generateCouplets(const CoupletGenerator& generator, Decoder& decoder, const GenerationSpec& spec,
                                      const CandidateDelta& onDelta = {});
std::vector<Couplet> generateCouplets(const CoupletModel& model, Decoder& decoder, const GenerationSpec& spec,
                                      const CandidateDelta& onDelta = {});

// Runs step() until the scheduler has no work left.
void runToCompletion(Scheduler& scheduler);

} // namespace couplet
