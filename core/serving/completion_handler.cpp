#include "completion_handler.h"

#include "api_error.h"
#include "connection_probe.h"
#include "event_stream.h"
#include "response_format.h"
#include "completion_engine.h"

#include <algorithm>
#include <cmath>

namespace couplet {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kSlice{20}; // how often a waiting handler looks at the client

std::vector<GenerationSpec> specsOf(const CompletionRequest& request)
{
    std::vector<GenerationSpec> specs;
    for (const auto& p : request.prompts) specs.push_back(p.parsed.spec);
    return specs;
}

std::vector<ChoiceOutcome> choicesOf(const std::vector<SequenceOutcome>& outcomes)
{
    std::vector<ChoiceOutcome> out;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const auto& o = outcomes[i];
        out.push_back({static_cast<int>(i), o.text, o.finishReason, o.promptTokens, o.completionTokens});
    }
    return out;
}

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

ApiError timeoutError(std::chrono::milliseconds timeout)
{
    return ApiError(504, "timeout_error",
                    "the request did not finish within the server's timeout of "
                        + std::to_string(static_cast<double>(timeout.count()) / 1000.0) + " s; its couplets were cancelled",
                    {}, "timeout");
}

// The first sequence that failed, or that the engine cancelled (not this
// handler: it answers before that; e.g. the app's queue, or a model reload).
const SequenceOutcome* firstFailure(const std::vector<SequenceOutcome>& outcomes)
{
    const auto it = std::find_if(outcomes.begin(), outcomes.end(), [](const SequenceOutcome& o) {
        return o.status == RequestStatus::Failed || o.status == RequestStatus::Cancelled;
    });
    return it == outcomes.end() ? nullptr : &*it;
}

} // namespace

void respondError(httplib::Response& res, int status, const std::string& body)
{
    res.status = status;
    res.set_content(body, "application/json");
}

CompletionHandler::CompletionHandler(CompletionEngine& engine, ServingMetrics& metrics, std::chrono::milliseconds timeout,
                                     const std::atomic<bool>& stopping)
    : m_engine(engine), m_metrics(metrics), m_timeout(timeout), m_stopping(stopping)
{
}

std::shared_ptr<const ServedModel> CompletionHandler::modelFor(const CompletionRequest& request) const
{
    auto model = m_engine.currentModel();
    if (!model)
        throw ApiError(503, "server_error", "no model is loaded yet; retry when the model has loaded", {}, "model_not_loaded");
    const std::string param = request.endpoint == Endpoint::Chat ? "messages" : "prompt";
    for (std::size_t i = 0; i < request.prompts.size(); ++i) {
        const std::string e = model->generator->validate(request.prompts[i].parsed.spec);
        if (e.empty()) continue;
        const std::string name = request.prompts.size() > 1 ? param + "[" + std::to_string(i) + "]" : param;
        const bool fromObject = request.prompts[i].source != "prompt";
        throw ApiError::invalidRequest(name + ": " + e, fromObject ? "couplet" : name, "unusable_prompt");
    }
    return model;
}

int CompletionHandler::retryAfterSeconds() const
{
    // About the time the queue ahead needs to drain: waves of a full batch, each a mean request long.
    const EngineGauges s = m_engine.gauges();
    const double waves = 1.0 + static_cast<double>(s.waiting) / std::max(1, s.slots);
    return std::clamp(static_cast<int>(std::ceil(waves * std::max(0.1, m_metrics.meanRequestSeconds()))), 1, 60);
}

void CompletionHandler::handle(const httplib::Request& req, httplib::Response& res, Endpoint endpoint) const
{
    try {
        CompletionRequest request = CompletionRequestParser::parse(req.body, endpoint);
        const auto model = modelFor(request);
        if (request.stream) respondStream(req, res, std::move(request), model->card.id);
        else respondWhole(req, res, request, model->card.id);
    } catch (const ApiError& e) {
        respondError(res, e.status(), e.body());
    } catch (const QueueFull& full) {
        const ApiError e(429, "rate_limit_error",
                         "the server's queue is full (" + std::to_string(full.outstanding) + " couplets waiting or running, room for "
                             + std::to_string(m_engine.capacity()) + "); retry later",
                         {}, "queue_full");
        res.set_header("Retry-After", std::to_string(retryAfterSeconds()));
        respondError(res, 429, e.body());
    }
}

void CompletionHandler::respondWhole(const httplib::Request& req, httplib::Response& res,
                                     const CompletionRequest& request, const std::string& modelId) const
{
    const auto start = Clock::now();
    auto job = m_engine.submit(specsOf(request), request.n, request.maxTokens);
    const ConnectionProbe probe(req.local_port, req.remote_addr, req.remote_port);
    while (!job->done()) {
        job->waitForEnd(kSlice);
        job->takeEvents();
        if (job->done()) break;
        if (probe.peerClosed() || m_stopping) {
            m_engine.cancel(job->id());
            res.status = m_stopping ? 503 : 499; // 499: the client closed the request (nothing reaches it)
            res.set_content(ApiError(res.status, "server_error", "cancelled: the client went away or the server is stopping").body(),
                            "application/json");
            return;
        }
        if (Clock::now() - start > m_timeout) {
            m_engine.cancel(job->id());
            const ApiError e = timeoutError(m_timeout);
            respondError(res, e.status(), e.body());
            return;
        }
    }
    const auto outcomes = job->outcomes();
    if (const auto* failed = firstFailure(outcomes)) {
        if (failed->status == RequestStatus::Cancelled)
            respondError(res, 503, ApiError(503, "server_error", "the couplets were cancelled on the server", {},
                                            "cancelled").body());
        else
            respondError(res, 500, ApiError(500, "server_error", "generation failed: " + failed->error).body());
        return;
    }
    const ResponseFormat format(request, modelId);
    res.set_content(format.completion(choicesOf(outcomes)), "application/json");
    m_metrics.observeRequest(secondsSince(start));
}

} // namespace couplet

namespace couplet {

void CompletionHandler::respondStream(const httplib::Request& req, httplib::Response& res, CompletionRequest request,
                                      const std::string& modelId) const
{
    auto job = m_engine.submit(specsOf(request), request.n, request.maxTokens);
    const ConnectionProbe probe(req.local_port, req.remote_addr, req.remote_port);
    probe.sendImmediately();
    auto stream = std::make_shared<EventStream>(std::move(request), modelId, std::move(job), m_engine, m_metrics, probe,
                                                m_timeout, m_stopping);
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");
    // The stream's body ends when the server closes the connection (no
    // length, not chunked). With chunked encoding the terminating chunk
    // travels after `data: [DONE]`, and node-fetch (the OpenAI Node client on
    // Node.js 18, Debian 12's) fails a stream whose reader stopped at [DONE]
    // before that chunk arrived with "Premature close".
    res.set_header("Connection", "close");
    res.set_content_provider(
        "text/event-stream", [stream](std::size_t, httplib::DataSink& sink) { return stream->pump(sink); },
        [stream](bool success) { stream->release(success); });
}

} // namespace couplet
