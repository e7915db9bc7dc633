#include "couplet_text_stream.h"

#include "script_converter.h"
#include "utf8.h"

namespace couplet {
namespace {

constexpr const char* kLabels[] = {"上联：", "下联：", "横批："};

} // namespace

std::string CoupletTextStream::push(std::string_view raw)
{
    m_pending.append(raw);
    const std::size_t complete = utf8::completePrefix(m_pending);
    std::string out;
    if (complete > 0 && !m_started) {
        out += kLabels[0];
        m_started = true;
    }
    const bool convert = m_script != OutputScript::Simplified;
    for (std::size_t i = 0; i < complete; ++i) {
        const char c = m_pending[i];
        if (convert && c != '\n') {
            m_lineHeld += c;
            continue;
        }
        if (convert) out += convertHeld();
        out += c;
        if (c == '\n' && ++m_line < 3) out += kLabels[m_line];
    }
    m_pending.erase(0, complete);
    m_text += out;
    return out;
}

std::string CoupletTextStream::convertHeld()
{
    std::string line = ScriptConverter::forScript(m_script).convert(m_lineHeld);
    m_lineHeld.clear();
    return line;
}

std::string CoupletTextStream::finish()
{
    if (m_lineHeld.empty()) return {};
    std::string out = convertHeld();
    m_text += out;
    return out;
}

} // namespace couplet
