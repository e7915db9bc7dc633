#include "table_header.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace couplet {

void badTableLine(const std::filesystem::path& path, int lineNo, const std::string& what)
{
    throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo) + ": " + what);
}

std::map<std::string, double> tableHeaderFields(const std::string& line, const std::filesystem::path& path, int lineNo,
                                                std::initializer_list<std::string_view> wordKeys)
{
    std::map<std::string, double> out;
    std::istringstream in(line.substr(1));
    std::string field;
    while (in >> field) {
        const auto eq = field.find('=');
        if (eq == std::string::npos) badTableLine(path, lineNo, "\"" + field + "\" is not key=number");
        const std::string key = field.substr(0, eq);
        if (std::find(wordKeys.begin(), wordKeys.end(), key) != wordKeys.end()) continue;
        try {
            out[key] = std::stod(field.substr(eq + 1));
        } catch (const std::logic_error&) {
            badTableLine(path, lineNo, "\"" + field + "\" is not key=number");
        }
    }
    return out;
}

} // namespace couplet
