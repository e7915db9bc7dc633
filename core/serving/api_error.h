#pragma once

#include <stdexcept>
#include <string>

namespace couplet {

// A request the server refuses, with the HTTP status and the fields of an
// OpenAI error object: {"error": {"message", "type", "param", "code"}}.
class ApiError : public std::runtime_error {
public:
    ApiError(int status, std::string type, std::string message, std::string param = {}, std::string code = {});

    int status() const { return m_status; }
    const std::string& type() const { return m_type; }
    const std::string& param() const { return m_param; }
    const std::string& code() const { return m_code; }
    // The error object as JSON text; param and code are null when empty.
    std::string body() const;

    static ApiError invalidRequest(std::string message, std::string param = {}, std::string code = {});

private:
    int m_status;
    std::string m_type;
    std::string m_param;
    std::string m_code;
};

} // namespace couplet
