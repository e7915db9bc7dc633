#pragma once

#include "completion_request.h"

#include <httplib.h>

#include <atomic>
#include <chrono>

namespace couplet {

class ServingEngine;
class ServingMetrics;

// POST /v1/completions and /v1/chat/completions: parse and check the body,
// check every prompt with the model, enqueue one job for all prompts x n,
// then wait for it (or stream it) while watching the client and the clock.
class CompletionHandler {
public:
    CompletionHandler(ServingEngine& engine, ServingMetrics& metrics, std::chrono::milliseconds timeout,
                      const std::atomic<bool>& stopping);

    void handle(const httplib::Request& req, httplib::Response& res, Endpoint endpoint) const;

private:
    void respondWhole(const httplib::Request& req, httplib::Response& res, const CompletionRequest& request) const;
    void respondStream(const httplib::Request& req, httplib::Response& res, CompletionRequest request) const;
    void validate(const CompletionRequest& request) const;
    int retryAfterSeconds() const;

    ServingEngine& m_engine;
    ServingMetrics& m_metrics;
    std::chrono::milliseconds m_timeout;
    const std::atomic<bool>& m_stopping;
};

// The error object as the response, with its status.
void respondError(httplib::Response& res, int status, const std::string& body);

} // namespace couplet
