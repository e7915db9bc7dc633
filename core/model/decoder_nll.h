#pragma once

#include "decoder.h"
#include "target_sequence.h"

#include <vector>

namespace couplet {

// Mean negative log-likelihood per target token of `examples` under
// `decoder`, teacher-forced through its KV cache: what the decoder really
// computes at its precision (the trainer's meanTargetNll() runs libtorch's
// fp32 forward instead). Examples run in groups of up to `rows` rows.
double decoderTargetNll(Decoder& decoder, const std::vector<TrainingExample>& examples, int rows = 64);

// The same, per example: each one's mean over its own target tokens.
std::vector<double> decoderTargetNlls(Decoder& decoder, const std::vector<TrainingExample>& examples, int rows = 64);

} // namespace couplet
