#include "args.h"

namespace couplet::cli {

Args::Args(int argc, char** argv)
{
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--", 0) != 0 || a.size() == 2) {
            m_positional.push_back(a);
            continue;
        }
        const auto eq = a.find('=');
        if (eq != std::string::npos) {
            m_options[a.substr(2, eq - 2)] = a.substr(eq + 1);
        } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
            m_options[a.substr(2)] = argv[++i];
        } else {
            m_options[a.substr(2)] = "";
        }
    }
}

bool Args::flag(const std::string& name)
{
    const auto it = m_options.find(name);
    if (it == m_options.end()) return false;
    m_used[name] = true;
    if (!it->second.empty()) {
        // "--json out.txt" would swallow a positional argument: give it back.
        m_positional.push_back(it->second);
        it->second.clear();
    }
    return true;
}

std::string Args::value(const std::string& name, const std::string& fallback)
{
    const auto it = m_options.find(name);
    if (it == m_options.end()) return fallback;
    m_used[name] = true;
    if (it->second.empty()) throw UsageError("--" + name + " needs a value");
    return it->second;
}

int Args::integer(const std::string& name, int fallback)
{
    const auto v = value(name);
    if (v.empty()) return fallback;
    try {
        std::size_t used = 0;
        const int n = std::stoi(v, &used);
        if (used != v.size()) throw std::invalid_argument(v);
        return n;
    } catch (const std::exception&) {
        throw UsageError("--" + name + " expects an integer, got '" + v + "'");
    }
}

double Args::number(const std::string& name, double fallback)
{
    const auto v = value(name);
    if (v.empty()) return fallback;
    try {
        std::size_t used = 0;
        const double x = std::stod(v, &used);
        if (used != v.size()) throw std::invalid_argument(v);
        return x;
    } catch (const std::exception&) {
        throw UsageError("--" + name + " expects a number, got '" + v + "'");
    }
}

void Args::finish() const
{
    for (const auto& [name, v] : m_options)
        if (m_used.count(name) == 0) throw UsageError("unknown option --" + name);
}

} // namespace couplet::cli
