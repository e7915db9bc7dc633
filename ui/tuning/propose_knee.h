#pragma once

#include "auto_tune_result.h"

#include <QList>

namespace couplet {

// The knee of a sweep: the smallest batch whose throughput is within
// `tolerance` (a fraction) of the best one; 0 for an empty sweep. Larger
// batches past the knee add latency for little throughput.
int proposeKnee(const QList<AutoTuneResult>& points, double tolerance = 0.05);

} // namespace couplet
