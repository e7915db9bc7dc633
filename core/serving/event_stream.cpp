#include "event_stream.h"

#include "api_error.h"
#include "completion_engine.h"

namespace couplet {
namespace {

constexpr std::chrono::milliseconds kSlice{20};
// Text written within this long of the last write waits for the next one.
// A reader sees a few characters every 20 ms instead of one per decode step,
// and the server makes a fraction of the writes and thread wake-ups (at 32
// streams they cost a fifth of a 2-core machine's throughput). The first text
// and the end are never held.
constexpr std::chrono::milliseconds kGather{20};

bool send(httplib::DataSink& sink, const std::string& data)
{
    return data.empty() || sink.write(data.data(), data.size());
}

} // namespace

EventStream::EventStream(CompletionRequest request, const std::string& modelId, std::shared_ptr<ServingJob> job,
                         CompletionEngine& engine, ServingMetrics& metrics, ConnectionProbe probe,
                         std::chrono::milliseconds timeout, const std::atomic<bool>& stopping)
    : m_request(std::move(request)), m_format(m_request, modelId), m_job(std::move(job)), m_engine(engine),
      m_metrics(metrics), m_probe(probe), m_start(std::chrono::steady_clock::now()), m_timeout(timeout), m_stopping(stopping)
{
}

void EventStream::cancel()
{
    if (!m_cancelled) m_engine.cancel(m_job->id());
    m_cancelled = true;
}

bool EventStream::writeEvents(httplib::DataSink& sink)
{
    std::string out;
    std::vector<SequenceOutcome> outcomes;
    for (const JobEvent& e : m_job->takeEvents()) {
        if (!e.finished) {
            out += m_format.deltaEvent(e.index, e.text);
            continue;
        }
        if (outcomes.empty()) outcomes = m_job->outcomes();
        const auto& o = outcomes[static_cast<std::size_t>(e.index)];
        if (o.status == RequestStatus::Failed)
            out += ResponseFormat::errorEvent(ApiError(500, "server_error", "choice " + std::to_string(e.index) + " failed: " + o.error));
        else if (o.status == RequestStatus::Cancelled)
            out += ResponseFormat::errorEvent(ApiError(503, "server_error", "choice " + std::to_string(e.index)
                                                                                 + " was cancelled on the server", {}, "cancelled"));
        else
            out += m_format.finishEvent(e.index, e.finishReason);
    }
    if (!out.empty()) m_lastWrite = std::chrono::steady_clock::now();
    return send(sink, out);
}

bool EventStream::finishStream(httplib::DataSink& sink, const std::string& last)
{
    std::string out = last;
    if (m_request.includeUsage) {
        std::vector<ChoiceOutcome> choices;
        for (const auto& o : m_job->outcomes()) choices.push_back({0, o.text, o.finishReason, o.promptTokens, o.completionTokens});
        out += m_format.usageEvent(choices);
    }
    out += ResponseFormat::doneEvent();
    if (!send(sink, out)) return false;
    sink.done();
    // The body has no length (see CompletionHandler::respondStream): it ends
    // when the connection closes. cpp-httplib keeps a kept-alive connection
    // open after such a body unless the provider reports false, so the
    // client would wait for its keep-alive timeout; the stream itself ended
    // well, which release() is told by m_ended.
    m_ended = true;
    return false;
}

bool EventStream::pump(httplib::DataSink& sink)
{
    if (!m_opened) {
        m_opened = true;
        if (!send(sink, m_format.openingEvents())) return false;
    }
    m_job->waitForEvents(kSlice, m_lastWrite + kGather);
    const bool done = m_job->done(); // before taking events: then every event of a done job is taken
    if (!writeEvents(sink)) return false;
    if (done) return finishStream(sink, {});
    if (m_probe.peerClosed()) return false;
    if (m_stopping) {
        // The stream ends as a stream does, so that a client sees why rather than a cut connection.
        cancel();
        const ApiError e(503, "server_error", "the server is stopping; the stream was cut short and its couplets cancelled",
                         {}, "server_stopping");
        return finishStream(sink, ResponseFormat::errorEvent(e));
    }
    if (std::chrono::steady_clock::now() - m_start > m_timeout) {
        cancel();
        m_timedOut = true;
        const ApiError e(504, "timeout_error", "the stream did not finish within the server's timeout; its couplets were cancelled",
                         {}, "timeout");
        return finishStream(sink, ResponseFormat::errorEvent(e));
    }
    return true;
}

void EventStream::release(bool complete)
{
    const std::string endpoint = m_request.endpoint == Endpoint::Chat ? "/v1/chat/completions" : "/v1/completions";
    complete = complete || m_ended;
    if (!complete || !m_job->done()) cancel();
    const bool ok = complete && !m_timedOut && !m_cancelled;
    m_metrics.countRequest(endpoint, ok ? "ok" : m_timedOut ? "timeout" : "cancelled");
    if (ok) m_metrics.observeRequest(std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count());
}

} // namespace couplet
