#include "http_bench.h"

#include "percentile.h"

#include "prompt_parser.h"
#include "serving_engine.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <regex>
#include <stdexcept>
#include <thread>

namespace couplet::bench {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

struct Url {
    std::string scheme_host_port;
    std::string basePath; // "" or "/something" before /v1
};

Url parseUrl(const std::string& url)
{
    static const std::regex pattern(R"((https?://[^/]+)(/.*)?)");
    std::smatch m;
    if (!std::regex_match(url, m, pattern)) throw std::invalid_argument("--http: '" + url + "' is not http://host:port");
    std::string path = m[2].str();
    while (!path.empty() && path.back() == '/') path.pop_back();
    if (path.size() >= 3 && path.substr(path.size() - 3) == "/v1") path.resize(path.size() - 3);
    return {m[1].str(), path};
}

HttpLoadPoint summarise(std::string shape, int size, const std::vector<LoadSample>& samples, int prompts, double seconds)
{
    HttpLoadPoint p;
    p.shape = std::move(shape);
    p.size = size;
    p.requests = static_cast<int>(samples.size());
    p.seconds = seconds;
    std::vector<double> total, first;
    for (const auto& s : samples) {
        if (!s.ok) {
            if (p.failed++ == 0) p.firstError = s.error;
            continue;
        }
        total.push_back(s.totalMs);
        first.push_back(s.firstTextMs);
    }
    p.couplets = static_cast<int>(total.size()) * prompts;
    p.coupletsPerSecond = seconds > 0 ? p.couplets / seconds : 0;
    p.p50Ms = percentile(total, 50);
    p.p95Ms = percentile(total, 95);
    p.p99Ms = percentile(total, 99);
    p.ttftP50Ms = percentile(first, 50);
    p.ttftP95Ms = percentile(first, 95);
    return p;
}

} // namespace

LoadSenderFactory HttpBench::httpSenders(const std::string& url, const std::string& apiKey)
{
    const Url u = parseUrl(url);
    return [u, apiKey] {
        auto client = std::make_shared<httplib::Client>(u.scheme_host_port);
        client->set_read_timeout(300, 0);
        client->set_keep_alive(true);
        client->set_tcp_nodelay(true); // else Nagle holds the body behind the headers for a delayed ACK (~40 ms)
        if (!apiKey.empty()) client->set_bearer_token_auth(apiKey);
        return [client, path = u.basePath + "/v1/completions"](const std::vector<std::string>& prompts, std::uint64_t seed) {
            const std::string body = nlohmann::json{{"prompt", prompts}, {"seed", seed}, {"stream", true}}.dump();
            LoadSample s;
            std::string received;
            const auto start = Clock::now();
            httplib::Request req;
            req.method = "POST";
            req.path = path;
            req.body = body;
            req.set_header("Content-Type", "application/json");
            req.content_receiver = [&](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
                if (received.empty()) s.firstTextMs = msSince(start);
                received.append(data, size);
                return true;
            };
            const auto res = client->send(req);
            s.totalMs = msSince(start);
            s.ok = res && res->status == 200 && received.find("data: [DONE]") != std::string::npos
                && received.find("\"error\"") == std::string::npos;
            if (!res) s.error = httplib::to_string(res.error());
            else if (!s.ok) s.error = "HTTP " + std::to_string(res->status) + ": " + received.substr(0, 200);
            return s;
        };
    };
}

LoadSenderFactory HttpBench::engineSenders(ServingEngine& engine)
{
    return [&engine] {
        return [&engine](const std::vector<std::string>& prompts, std::uint64_t seed) {
            const auto start = Clock::now();
            std::vector<GenerationSpec> specs;
            for (const auto& p : prompts) {
                specs.push_back(PromptParser::parse(p).spec);
                specs.back().sampling.seed = seed;
            }
            LoadSample s;
            auto job = engine.submit(specs, 1, 0);
            while (!job->done()) {
                if (s.firstTextMs > 0) {
                    job->waitForEnd(std::chrono::milliseconds(20)); // the rest of the text is not timed
                    continue;
                }
                job->waitForEvents(std::chrono::milliseconds(20));
                if (!job->takeEvents().empty()) s.firstTextMs = msSince(start);
            }
            s.totalMs = msSince(start);
            const auto outcomes = job->outcomes();
            s.ok = std::all_of(outcomes.begin(), outcomes.end(), [](const SequenceOutcome& o) { return o.status == RequestStatus::Done; });
            if (!s.ok) s.error = "a couplet failed or was cancelled";
            return s;
        };
    };
}

std::vector<std::string> HttpBench::prompts(int count, int offset)
{
    static const char* const kThemes[] = {"新春", "吉祥", "龙年", "平安", "团圆", "丰收", "富贵", "健康"};
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i) out.push_back(std::string("关于") + kThemes[(offset + i) % 8] + "的七言春联");
    return out;
}

HttpLoadPoint HttpBench::arrays(const LoadSenderFactory& senders, int arraySize, int requests)
{
    LoadSender send = senders();
    std::vector<LoadSample> samples;
    const auto start = Clock::now();
    for (int r = 0; r < requests; ++r)
        samples.push_back(send(prompts(arraySize, r * arraySize), static_cast<std::uint64_t>(r + 1)));
    return summarise("array", arraySize, samples, arraySize, msSince(start) / 1000.0);
}

HttpLoadPoint HttpBench::clients(const LoadSenderFactory& senders, int clients, int requests)
{
    std::vector<LoadSender> perClient;
    for (int c = 0; c < clients; ++c) perClient.push_back(senders());
    std::mutex mutex;
    std::vector<LoadSample> samples;
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    for (int c = 0; c < clients; ++c)
        threads.emplace_back([&, c] {
            for (int r = 0; r < requests; ++r) {
                const LoadSample s = perClient[static_cast<std::size_t>(c)](prompts(1, c * requests + r),
                                                                           static_cast<std::uint64_t>(c * requests + r + 1));
                std::lock_guard lock(mutex);
                samples.push_back(s);
            }
        });
    for (auto& t : threads) t.join();
    return summarise("clients", clients, samples, 1, msSince(start) / 1000.0);
}

void HttpBench::compare(HttpLoadPoint& http, const HttpLoadPoint& inProcess)
{
    http.inProcessCoupletsPerSecond = inProcess.coupletsPerSecond;
    http.inProcessP50Ms = inProcess.p50Ms;
    http.ratio = inProcess.coupletsPerSecond > 0 ? http.coupletsPerSecond / inProcess.coupletsPerSecond : 0;
}

void HttpBench::printTable(const std::vector<HttpLoadPoint>& points, const std::string& url, std::ostream& out)
{
    out << "HTTP load against " << url << " (streamed /v1/completions, 7-character couplets)\n";
    out << "| load | requests | couplets | failed | couplets/s | p50 ms | p95 ms | p99 ms | TTFT p50 ms | TTFT p95 ms "
           "| in-process couplets/s | in-process p50 ms | HTTP/in-process |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    out << std::fixed;
    for (const auto& p : points) {
        out << "| " << (p.shape == "array" ? "array of " : "") << p.size << (p.shape == "array" ? "" : " clients") << " | "
            << p.requests << " | " << p.couplets << " | " << p.failed << " | " << std::setprecision(1) << p.coupletsPerSecond
            << " | " << std::setprecision(0) << p.p50Ms << " | " << p.p95Ms << " | " << p.p99Ms << " | " << p.ttftP50Ms << " | "
            << p.ttftP95Ms << " | ";
        if (p.inProcessCoupletsPerSecond > 0)
            out << std::setprecision(1) << p.inProcessCoupletsPerSecond << " | " << std::setprecision(0) << p.inProcessP50Ms
                << " | " << std::setprecision(2) << p.ratio << " |\n";
        else
            out << "- | - | - |\n";
    }
}

void HttpBench::writeJson(const std::vector<HttpLoadPoint>& points, const std::string& url, const std::string& path)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : points)
        list.push_back({{"shape", p.shape}, {"size", p.size}, {"requests", p.requests}, {"couplets", p.couplets},
                        {"failed", p.failed}, {"seconds", p.seconds}, {"couplets_per_second", p.coupletsPerSecond},
                        {"p50_ms", p.p50Ms}, {"p95_ms", p.p95Ms}, {"p99_ms", p.p99Ms}, {"ttft_p50_ms", p.ttftP50Ms},
                        {"ttft_p95_ms", p.ttftP95Ms}, {"in_process_couplets_per_second", p.inProcessCoupletsPerSecond},
                        {"in_process_p50_ms", p.inProcessP50Ms}, {"ratio", p.ratio}});
    std::ofstream(path) << nlohmann::json{{"url", url}, {"points", list}}.dump(2) << '\n';
}

} // namespace couplet::bench
