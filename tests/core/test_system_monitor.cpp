#include "system_monitor.h"

#include <check.h>

#include <chrono>
#include <cstdio>

using namespace couplet;

COUPLET_TEST(cpuPathSaysWhyThereIsNoGpu)
{
    SystemMonitor monitor("libnvidia-ml-missing.so.1");
    CHECK(!monitor.hasGpu());
    CHECK_EQ(monitor.source(), std::string("CPU (no GPU found: libnvidia-ml-missing.so.1 not loadable)"));
    const auto s = monitor.sample();
    CHECK(!s.gpu);
    CHECK_EQ(s.source, monitor.source());
    CHECK_EQ(s.gpuMemoryTotalMiB, 0.0);
}

COUPLET_TEST(cpuAndMemorySamplesAreSane)
{
    SystemMonitor monitor("libnvidia-ml-missing.so.1");
    // Burn some CPU so the process has ticks to count.
    volatile double sink = 0;
    for (int i = 0; i < 30'000'000; ++i) sink = sink + i * 0.5;
    const auto s = monitor.sample();
    CHECK(s.cpuMachinePercent >= 0 && s.cpuMachinePercent <= 100);
    CHECK(s.cpuProcessPercent >= 0 && s.cpuProcessPercent <= 100);
    CHECK(s.residentMiB > 0);
    CHECK(s.machineMemoryTotalMiB > 0);
    CHECK(s.machineMemoryUsedMiB > 0 && s.machineMemoryUsedMiB <= s.machineMemoryTotalMiB);
    const auto again = monitor.sample();
    CHECK(again.cpuMachinePercent >= 0 && again.cpuMachinePercent <= 100);
}

// A sample right after another (the engine's stats timer and its step loop
// can both fire within milliseconds) repeats the figures of the last span
// instead of reading 0% from clock ticks that have not moved: the CPU chart
// dipped to 0 every few seconds under full load.
COUPLET_TEST(aSampleSoonAfterAnotherKeepsTheLastFigures)
{
    SystemMonitor monitor("libnvidia-ml-missing.so.1");
    // Work, not sleep, for longer than the minimum span, so the process has ticks.
    const auto start = std::chrono::steady_clock::now();
    volatile double sink = 0;
    while (std::chrono::steady_clock::now() - start < std::chrono::duration<double>(2 * SystemMonitor::kMinCpuSpan))
        for (int i = 0; i < 100'000; ++i) sink = sink + i * 0.5;
    const auto first = monitor.sample();
    CHECK(first.cpuProcessPercent > 0);
    const auto second = monitor.sample();
    CHECK_EQ(second.cpuProcessPercent, first.cpuProcessPercent);
    CHECK_EQ(second.cpuMachinePercent, first.cpuMachinePercent);
}

// Whatever this machine has: on a GPU server it names the GPU and reads its
// memory; elsewhere it falls back with a reason.
COUPLET_TEST(defaultMonitorDescribesItsSource)
{
    SystemMonitor monitor;
    const auto s = monitor.sample();
    std::printf("source: %s; GPU %.0f%% %.0f/%.0f MiB %.0f C %.0f W; CPU %.1f%% (process %.1f%%); "
                "RSS %.1f MiB; memory %.0f/%.0f MiB\n",
                s.source.c_str(), s.gpuUtilizationPercent, s.gpuMemoryUsedMiB, s.gpuMemoryTotalMiB,
                s.gpuTemperatureC, s.gpuPowerW, s.cpuMachinePercent, s.cpuProcessPercent, s.residentMiB,
                s.machineMemoryUsedMiB, s.machineMemoryTotalMiB);
    if (monitor.hasGpu()) {
        CHECK(s.source.find("via NVML") != std::string::npos);
        CHECK(s.gpuMemoryTotalMiB > 0);
        CHECK(s.gpuUtilizationPercent >= 0 && s.gpuUtilizationPercent <= 100);
    } else {
        CHECK(s.source.rfind("CPU (no GPU found: ", 0) == 0);
    }
}
