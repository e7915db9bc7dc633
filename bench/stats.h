#pragma once

namespace couplet::bench {

// CPU time this process has used, all threads, in seconds. On a machine shared
// with other work it grows with the work done rather than with waiting.
double processCpuSeconds();

} // namespace couplet::bench
