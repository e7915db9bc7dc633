#pragma once

#include "bench_results.h"

#include "model_config.h"

namespace couplet {
class CoupletModel;
}

namespace couplet::bench {

// The machine's matrix-product roofline: torch::matmul in the model's dtype
// on the model's device, at the decode step's shapes and one large square.
class Roofline {
public:
    // `decodeRows`: the batch size whose decode shapes are measured;
    // `square`: side of the large square product; `minSeconds` per shape.
    static RooflinePoint measure(const CoupletModel& model, int decodeRows, int square, double minSeconds);
    // Model FLOPs for one generated token attending to `context` positions:
    // 2 x non-embedding weights + 2 x dim x vocab (output projection)
    // + 4 x layers x dim x context (scores and weighted values).
    static double flopsPerToken(const ModelConfig& config, double context);
    // FLOPs of one prompt token at `context` positions: its layers, without
    // the output projection (a prefill computes logits for the last token only).
    static double flopsPerPromptToken(const ModelConfig& config, double context);
    // Fills the decode figures of `roofline` from a sweep point.
    static void rateDecoding(RooflinePoint& roofline, const CoupletModel& model, const BatchPoint& point);
};

} // namespace couplet::bench
