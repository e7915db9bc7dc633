#pragma once

#include "system_monitor.h"
#include "throughput_meter.h"

namespace couplet {

// About once a second: what the engine did over the meter's window, its
// slots, and the machine. The engine sends it, the charts keep it.
struct EngineStats {
    ThroughputSnapshot throughput;   // queueDepth: waiting now
    SystemMonitor::Sample machine;
    int running = 0;                 // sequences in slots
    int maxBatch = 0;                // effective slots

    // GPU utilisation, else this process's CPU share.
    double deviceUtilPercent() const { return machine.gpu ? machine.gpuUtilizationPercent : machine.cpuProcessPercent; }
    // GPU memory in use, else this process's resident memory.
    double deviceMemoryMiB() const { return machine.gpu ? machine.gpuMemoryUsedMiB : machine.residentMiB; }
};

} // namespace couplet
