#pragma once

#include "completion_request.h"
#include "served_model.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <memory>

namespace couplet {

class CompletionEngine;
class ServingMetrics;

// POST /v1/completions and /v1/chat/completions: parse and check the body,
// check every prompt with the model, enqueue one job for all prompts x n,
// then wait for it (or stream it) while watching the client and the clock.
class CompletionHandler {
public:
    CompletionHandler(CompletionEngine& engine, ServingMetrics& metrics, std::chrono::milliseconds timeout,
                      const std::atomic<bool>& stopping);

    void handle(const httplib::Request& req, httplib::Response& res, Endpoint endpoint) const;

private:
    void respondWhole(const httplib::Request& req, httplib::Response& res, const CompletionRequest& request,
                      const std::string& modelId) const;
    void respondStream(const httplib::Request& req, httplib::Response& res, CompletionRequest request,
                       const std::string& modelId) const;
    // The model the request is checked against; throws 503 when none is loaded.
    std::shared_ptr<const ServedModel> modelFor(const CompletionRequest& request) const;
    int retryAfterSeconds() const;

    CompletionEngine& m_engine;
    ServingMetrics& m_metrics;
    std::chrono::milliseconds m_timeout;
    const std::atomic<bool>& m_stopping;
};

// The error object as the response, with its status.
void respondError(httplib::Response& res, int status, const std::string& body);

} // namespace couplet
