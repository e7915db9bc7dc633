#include "system_monitor.h"

#include <algorithm>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace couplet {

namespace {

// The few NVML declarations used, as in nvml.h, so no CUDA headers are needed.
using NvmlReturn = int;
using NvmlDevice = void*;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kNvmlTemperatureGpu = 0;
constexpr unsigned kNvmlNameLength = 96;
struct NvmlUtilization {
    unsigned gpu;
    unsigned memory;
};
struct NvmlMemory {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

constexpr double kMiB = 1024.0 * 1024.0;

// Value of `key` ("MemTotal:") in a /proc file of "key value unit" lines, in kB.
double procKilobytes(const char* path, const std::string& key)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) return std::stod(line.substr(key.size()));
    return 0;
}

} // namespace

struct SystemMonitor::Nvml {
    void* library = nullptr;
    NvmlDevice device = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*) = nullptr;
    NvmlReturn (*memory)(NvmlDevice, NvmlMemory*) = nullptr;
    NvmlReturn (*temperature)(NvmlDevice, int, unsigned*) = nullptr;
    NvmlReturn (*power)(NvmlDevice, unsigned*) = nullptr;
    std::string name;

    ~Nvml()
    {
        if (shutdown) shutdown();
        if (library) dlclose(library);
    }

    template <typename F>
    bool bind(F& function, const char* symbol)
    {
        function = reinterpret_cast<F>(dlsym(library, symbol));
        return function != nullptr;
    }

    // Empty on success, else why NVML cannot be used.
    std::string open(const std::string& path, int index)
    {
        library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!library) return path + " not loadable";
        NvmlReturn (*init)() = nullptr;
        NvmlReturn (*handle)(unsigned, NvmlDevice*) = nullptr;
        NvmlReturn (*getName)(NvmlDevice, char*, unsigned) = nullptr;
        if (!bind(init, "nvmlInit_v2") || !bind(handle, "nvmlDeviceGetHandleByIndex_v2")
            || !bind(getName, "nvmlDeviceGetName") || !bind(utilization, "nvmlDeviceGetUtilizationRates")
            || !bind(memory, "nvmlDeviceGetMemoryInfo") || !bind(temperature, "nvmlDeviceGetTemperature")
            || !bind(power, "nvmlDeviceGetPowerUsage"))
            return path + " lacks the NVML functions needed";
        if (init() != kNvmlSuccess) return "nvmlInit failed";
        bind(shutdown, "nvmlShutdown");
        if (handle(static_cast<unsigned>(index), &device) != kNvmlSuccess)
            return "no NVIDIA GPU with index " + std::to_string(index);
        char buffer[kNvmlNameLength] = {};
        name = getName(device, buffer, kNvmlNameLength) == kNvmlSuccess ? buffer : "NVIDIA GPU";
        return {};
    }

    void fill(Sample& s) const
    {
        NvmlUtilization u{};
        if (utilization(device, &u) == kNvmlSuccess) s.gpuUtilizationPercent = u.gpu;
        NvmlMemory m{};
        if (memory(device, &m) == kNvmlSuccess) {
            s.gpuMemoryUsedMiB = m.used / kMiB;
            s.gpuMemoryTotalMiB = m.total / kMiB;
        }
        unsigned celsius = 0;
        if (temperature(device, kNvmlTemperatureGpu, &celsius) == kNvmlSuccess) s.gpuTemperatureC = celsius;
        unsigned milliwatts = 0;
        if (power(device, &milliwatts) == kNvmlSuccess) s.gpuPowerW = milliwatts / 1000.0;
    }
};

SystemMonitor::SystemMonitor(const std::string& nvmlLibrary, int gpuIndex)
    : m_nvml(std::make_unique<Nvml>()), m_previous(readCpuTimes())
{
    const std::string problem = m_nvml->open(nvmlLibrary, gpuIndex);
    if (problem.empty()) {
        m_source = m_nvml->name + " via NVML";
    } else {
        m_nvml.reset();
        m_source = "CPU (no GPU found: " + problem + ")";
    }
}

SystemMonitor::~SystemMonitor() = default;

bool SystemMonitor::hasGpu() const
{
    return m_nvml != nullptr;
}

std::string SystemMonitor::source() const
{
    return m_source;
}

// /proc/stat's first line: user nice system idle iowait irq softirq steal ...
// in clock ticks; /proc/self/stat fields 14 and 15 are this process's user and
// system ticks.
SystemMonitor::CpuTimes SystemMonitor::readCpuTimes()
{
    CpuTimes t;
    t.at = std::chrono::steady_clock::now();
    std::ifstream stat("/proc/stat");
    std::string cpu;
    stat >> cpu;
    std::uint64_t value = 0;
    for (int field = 0; field < 8 && stat >> value; ++field) {
        t.total += value;
        if (field != 3 && field != 4) t.busy += value; // idle and iowait are not busy
    }
    std::ifstream self("/proc/self/stat");
    std::string content((std::istreambuf_iterator<char>(self)), std::istreambuf_iterator<char>());
    // The command name (field 2) may hold spaces; count fields after its ')'.
    std::istringstream rest(content.substr(content.rfind(')') + 1));
    std::string field;
    for (int index = 3; index <= 15 && rest >> field; ++index)
        if (index == 14 || index == 15) t.processTicks += std::stoull(field);
    return t;
}

void SystemMonitor::sampleCpu(Sample& s)
{
    const CpuTimes now = readCpuTimes();
    const double wall = std::chrono::duration<double>(now.at - m_previous.at).count();
    if (wall < kMinCpuSpan) {
        // Two callers (the engine's stats timer and its step loop; a /metrics
        // scrape) can sample a few milliseconds apart: keep the span growing.
        s.cpuMachinePercent = m_lastMachinePercent;
        s.cpuProcessPercent = m_lastProcessPercent;
        return;
    }
    const auto total = now.total - m_previous.total;
    if (total > 0) s.cpuMachinePercent = 100.0 * double(now.busy - m_previous.busy) / double(total);
    const double ticksPerSecond = double(sysconf(_SC_CLK_TCK));
    const double cores = std::max(1u, std::thread::hardware_concurrency());
    if (wall > 0 && ticksPerSecond > 0) {
        const double cpuSeconds = double(now.processTicks - m_previous.processTicks) / ticksPerSecond;
        s.cpuProcessPercent = 100.0 * cpuSeconds / wall / cores;
    }
    s.cpuMachinePercent = std::clamp(s.cpuMachinePercent, 0.0, 100.0);
    s.cpuProcessPercent = std::clamp(s.cpuProcessPercent, 0.0, 100.0);
    m_lastMachinePercent = s.cpuMachinePercent;
    m_lastProcessPercent = s.cpuProcessPercent;
    m_previous = now;
}

void SystemMonitor::sampleMemory(Sample& s)
{
    s.residentMiB = procKilobytes("/proc/self/status", "VmRSS:") / 1024.0;
    s.machineMemoryTotalMiB = procKilobytes("/proc/meminfo", "MemTotal:") / 1024.0;
    const double available = procKilobytes("/proc/meminfo", "MemAvailable:") / 1024.0;
    s.machineMemoryUsedMiB = std::max(0.0, s.machineMemoryTotalMiB - available);
}

SystemMonitor::Sample SystemMonitor::sample()
{
    Sample s;
    s.source = m_source;
    s.gpu = hasGpu();
    if (m_nvml) m_nvml->fill(s);
    sampleCpu(s);
    sampleMemory(s);
    return s;
}

} // namespace couplet
