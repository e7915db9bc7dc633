#include "propose_knee.h"

#include <algorithm>

namespace couplet {

int proposeKnee(const QList<AutoTuneResult>& points, double tolerance)
{
    double best = 0;
    for (const AutoTuneResult& p : points)
        best = std::max(best, p.tokensPerSecond);
    int knee = 0;
    for (const AutoTuneResult& p : points) {
        if (p.tokensPerSecond >= (1.0 - tolerance) * best && (knee == 0 || p.batch < knee))
            knee = p.batch;
    }
    return knee;
}

} // namespace couplet
