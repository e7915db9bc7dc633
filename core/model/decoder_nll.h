#pragma once

#include "decoder.h"
#include "target_sequence.h"

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

namespace couplet {

class AlignTable;

// Changes the logits before a target token is scored: `example` indexes the
// examples given, `target` counts that example's target tokens from 0.
using TargetLogitBias = std::function<void(std::size_t example, std::size_t target, std::span<float> logits)>;

// Mean negative log-likelihood per target token of `examples` under
// `decoder`, teacher-forced through its KV cache: what the decoder really
// computes at its precision (the trainer's meanTargetNll() runs libtorch's
// fp32 forward instead). Examples run in groups of up to `rows` rows.
// With `bias`, each target is scored under softmax(logits + bias), renormalised
// over the whole vocabulary.
double decoderTargetNll(Decoder& decoder, const std::vector<TrainingExample>& examples, int rows = 64,
                        const TargetLogitBias& bias = {});

// The same, per example: each one's mean over its own target tokens.
std::vector<double> decoderTargetNlls(Decoder& decoder, const std::vector<TrainingExample>& examples, int rows = 64,
                                      const TargetLogitBias& bias = {});

// 对仗 fusion as decoding applies it (CoupletPolicy): the k-th target of
// example e gets `weight` times the table's row of upperLines[e][k] added, for
// k within that 上联. With answerExample()'s 下联 examples, the reference 下联's
// likelihood under the model and the table together. Keeps references to its
// arguments.
TargetLogitBias alignFusionBias(const AlignTable& table, float weight, const std::vector<std::vector<int>>& upperLines);

} // namespace couplet
