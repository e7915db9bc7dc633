#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace couplet::cli {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// "--name value", "--name=value" and "--flag" options plus positional
// arguments. Every option must be consumed; leftovers are a usage error.
class Args {
public:
    Args(int argc, char** argv);

    bool flag(const std::string& name);
    std::string value(const std::string& name, const std::string& fallback = {});
    int integer(const std::string& name, int fallback);
    double number(const std::string& name, double fallback);
    std::vector<std::string> positional() const { return m_positional; }
    bool has(const std::string& name) const { return m_options.count(name) != 0; }
    // Throws UsageError naming options nobody asked for.
    void finish() const;

private:
    std::map<std::string, std::string> m_options;
    std::map<std::string, bool> m_used;
    std::vector<std::string> m_positional;
};

} // namespace couplet::cli
