#pragma once

#include "completion_request.h"
#include "connection_probe.h"
#include "response_format.h"
#include "serving_job.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <memory>

namespace couplet {

class CompletionEngine;
class ServingMetrics;

// One streamed response: the job's text deltas as server-sent events, then
// [DONE]. Runs on the request's HTTP thread as httplib's content provider;
// a client that goes away, the timeout or a stopping server cancels the job.
class EventStream {
public:
    EventStream(CompletionRequest request, const std::string& modelId, std::shared_ptr<ServingJob> job,
                CompletionEngine& engine, ServingMetrics& metrics, ConnectionProbe probe, std::chrono::milliseconds timeout,
                const std::atomic<bool>& stopping);

    // One turn of the provider: false ends the response and closes the
    // connection, early (the client is gone) or after [DONE] (the body's end).
    bool pump(httplib::DataSink& sink);
    // The provider is done; `complete` is false when the response was cut short.
    void release(bool complete);

private:
    bool writeEvents(httplib::DataSink& sink);
    bool finishStream(httplib::DataSink& sink, const std::string& last);
    void cancel();

    CompletionRequest m_request;
    ResponseFormat m_format;
    std::shared_ptr<ServingJob> m_job;
    CompletionEngine& m_engine;
    ServingMetrics& m_metrics;
    ConnectionProbe m_probe;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastWrite; // of text; none yet: the epoch
    std::chrono::milliseconds m_timeout;
    const std::atomic<bool>& m_stopping;
    bool m_opened = false;
    bool m_cancelled = false;
    bool m_timedOut = false;
    bool m_ended = false;     // [DONE] written: the stream ended as it should
};

} // namespace couplet
