#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace couplet {

// Samples the machine the engine runs on: the GPU through NVML when the NVIDIA
// driver's libnvidia-ml.so.1 can be loaded at run time (no build dependency),
// and always the CPU and memory from /proc. `source` says which was used.
class SystemMonitor {
public:
    struct Sample {
        std::string source;             // "NVIDIA H200 via NVML" or "CPU (no GPU found: ...)"
        bool gpu = false;
        double gpuUtilizationPercent = 0;
        double gpuMemoryUsedMiB = 0;
        double gpuMemoryTotalMiB = 0;
        double gpuTemperatureC = 0;
        double gpuPowerW = 0;
        // CPU use over the span since the previous reading, which is at least
        // kMinCpuSpan: a sample taken sooner repeats the last figures (over a
        // few milliseconds /proc's clock ticks have not moved and read as 0%).
        double cpuMachinePercent = 0;   // all cores
        double cpuProcessPercent = 0;   // this process, normalised by core count
        double residentMiB = 0;         // this process (VmRSS)
        double machineMemoryUsedMiB = 0; // MemTotal - MemAvailable
        double machineMemoryTotalMiB = 0;
    };

    // Tries NVML from `nvmlLibrary`; a name that cannot be loaded gives a CPU-only monitor.
    explicit SystemMonitor(const std::string& nvmlLibrary = "libnvidia-ml.so.1", int gpuIndex = 0);
    ~SystemMonitor();
    SystemMonitor(const SystemMonitor&) = delete;
    SystemMonitor& operator=(const SystemMonitor&) = delete;

    static constexpr double kMinCpuSpan = 0.25; // seconds

    Sample sample();
    bool hasGpu() const;
    std::string source() const;

private:
    struct CpuTimes {
        std::uint64_t busy = 0;
        std::uint64_t total = 0;
        std::uint64_t processTicks = 0;
        std::chrono::steady_clock::time_point at;
    };
    static CpuTimes readCpuTimes();
    void sampleCpu(Sample& s);
    static void sampleMemory(Sample& s);

    struct Nvml;
    std::unique_ptr<Nvml> m_nvml;
    std::string m_source;
    CpuTimes m_previous;
    double m_lastMachinePercent = 0, m_lastProcessPercent = 0;
};

} // namespace couplet
