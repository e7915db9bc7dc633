// The one percentile behind the charts, the auto-tuner and the benchmarks.
#include "check.h"

#include "percentile.h"

using namespace couplet;

COUPLET_TEST(percentileInterpolatesBetweenRanks)
{
    CHECK_NEAR(percentile({}, 50), 0.0, 1e-12);
    CHECK_NEAR(percentile({7}, 95), 7.0, 1e-12);
    CHECK_NEAR(percentile({4, 1, 3, 2}, 50), 2.5, 1e-12);
    CHECK_NEAR(percentile({1, 2, 3, 4, 5}, 0), 1.0, 1e-12);
    CHECK_NEAR(percentile({1, 2, 3, 4, 5}, 100), 5.0, 1e-12);
    CHECK_NEAR(percentile({10, 20}, 95), 19.5, 1e-12);
    CHECK_NEAR(percentile({1, 2, 3, 4, 5}, 250), 5.0, 1e-12);
}
