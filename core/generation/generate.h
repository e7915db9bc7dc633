#pragma once

#include "couplet_model.h"
#include "scheduler.h"

#include <functional>
#include <string_view>
#include <vector>

namespace couplet {

using CandidateDelta = std::function<void(int candidate, std::string_view text)>;

// How many couplets are sampled for spec.candidates: 4x when reranking
// (at most kMaxSampledCandidates), else as many as asked for.
inline constexpr int kRerankFactor = 4;
inline constexpr int kMaxSampledCandidates = 64;
int sampledCandidates(const GenerationSpec& spec);

// Writes sampledCandidates(spec) couplets in one batch on a private scheduler
// and returns the best spec.candidates of them: reranked by CoupletScorer
// (each with its score parts) when spec.rerank, else by the model's mean
// log-probability. onDelta streams every sampled candidate, by its index among
// the sampled ones. Throws std::invalid_argument when the spec is unusable.
std::vector<Couplet> generateCouplets(const CoupletModel& model, Decoder& decoder, const GenerationSpec& spec,
                                      const CandidateDelta& onDelta = {});

// Runs step() until the scheduler has no work left.
void runToCompletion(Scheduler& scheduler);

} // namespace couplet
