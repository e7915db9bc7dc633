#include "serving_metrics.h"

#include <sstream>

namespace couplet {
namespace {

void gauge(std::ostringstream& out, const char* name, const char* help, double value)
{
    out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << " gauge\n" << name << ' ' << value << '\n';
}

} // namespace

ServingMetrics::ServingMetrics()
    : m_firstToken({0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}),
      m_requestTime({0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60})
{
}

void ServingMetrics::countRequest(const std::string& endpoint, const std::string& outcome)
{
    std::lock_guard lock(m_mutex);
    ++m_requests[{endpoint, outcome}];
}

void ServingMetrics::addTokens(long long promptTokens, long long generatedTokens)
{
    std::lock_guard lock(m_mutex);
    m_promptTokens += promptTokens;
    m_generatedTokens += generatedTokens;
}

void ServingMetrics::observeFirstToken(double seconds)
{
    std::lock_guard lock(m_mutex);
    m_firstToken.observe(seconds);
}

void ServingMetrics::observeRequest(double seconds)
{
    std::lock_guard lock(m_mutex);
    m_requestTime.observe(seconds);
}

double ServingMetrics::meanRequestSeconds() const
{
    std::lock_guard lock(m_mutex);
    return m_requestTime.count() > 0 ? m_requestTime.sum() / static_cast<double>(m_requestTime.count()) : 0;
}

long long ServingMetrics::requests(const std::string& endpoint, const std::string& outcome) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_requests.find({endpoint, outcome});
    return it == m_requests.end() ? 0 : it->second;
}

std::string ServingMetrics::exposition(const EngineGauges& engine, const SystemMonitor::Sample& system) const
{
    std::ostringstream out;
    {
        std::lock_guard lock(m_mutex);
        out << "# HELP couplet_requests_total HTTP requests by endpoint and outcome\n"
               "# TYPE couplet_requests_total counter\n";
        for (const auto& [key, count] : m_requests)
            out << "couplet_requests_total{endpoint=\"" << key.first << "\",outcome=\"" << key.second << "\"} " << count << '\n';
        out << "# HELP couplet_generated_tokens_total tokens generated for HTTP requests\n"
               "# TYPE couplet_generated_tokens_total counter\ncouplet_generated_tokens_total "
            << m_generatedTokens << '\n';
        out << "# HELP couplet_prompt_tokens_total prompt tokens prefilled for HTTP requests\n"
               "# TYPE couplet_prompt_tokens_total counter\ncouplet_prompt_tokens_total "
            << m_promptTokens << '\n';
        out << m_firstToken.exposition("couplet_time_to_first_token_seconds", "submit to first generated token, per couplet");
        out << m_requestTime.exposition("couplet_request_duration_seconds", "HTTP request received to response complete");
    }
    gauge(out, "couplet_queue_depth", "sequences waiting for a slot", engine.waiting);
    gauge(out, "couplet_running_sequences", "sequences in slots", engine.running);
    gauge(out, "couplet_batch_occupancy", "running sequences / slots (0..1)",
          engine.slots > 0 ? static_cast<double>(engine.running) / engine.slots : 0);
    gauge(out, "couplet_engine_steps", "scheduler steps run", static_cast<double>(engine.steps));
    gauge(out, "couplet_gpu_available", "1 when a GPU is measured through NVML", system.gpu ? 1 : 0);
    gauge(out, "couplet_gpu_utilization_percent", "GPU utilisation", system.gpuUtilizationPercent);
    gauge(out, "couplet_gpu_memory_used_bytes", "GPU memory in use", system.gpuMemoryUsedMiB * 1048576.0);
    gauge(out, "couplet_gpu_memory_total_bytes", "GPU memory", system.gpuMemoryTotalMiB * 1048576.0);
    gauge(out, "couplet_cpu_utilization_percent", "CPU use of the whole machine", system.cpuMachinePercent);
    gauge(out, "couplet_process_cpu_utilization_percent", "CPU use of this process (all cores = 100)", system.cpuProcessPercent);
    gauge(out, "couplet_process_resident_memory_bytes", "resident memory of this process", system.residentMiB * 1048576.0);
    gauge(out, "couplet_machine_memory_used_bytes", "machine memory in use", system.machineMemoryUsedMiB * 1048576.0);
    gauge(out, "couplet_machine_memory_total_bytes", "machine memory", system.machineMemoryTotalMiB * 1048576.0);
    return out.str();
}

} // namespace couplet
