#include "api_error.h"

#include <nlohmann/json.hpp>

namespace couplet {

ApiError::ApiError(int status, std::string type, std::string message, std::string param, std::string code)
    : std::runtime_error(std::move(message)), m_status(status), m_type(std::move(type)), m_param(std::move(param)),
      m_code(std::move(code))
{
}

std::string ApiError::body() const
{
    auto orNull = [](const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); };
    const nlohmann::json error{{"message", what()}, {"type", m_type}, {"param", orNull(m_param)}, {"code", orNull(m_code)}};
    return nlohmann::json{{"error", error}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ApiError ApiError::invalidRequest(std::string message, std::string param, std::string code)
{
    return ApiError(400, "invalid_request_error", std::move(message), std::move(param), std::move(code));
}

} // namespace couplet
