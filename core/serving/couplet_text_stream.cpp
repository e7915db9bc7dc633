#include "couplet_text_stream.h"

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
    for (std::size_t i = 0; i < complete; ++i) {
        const char c = m_pending[i];
        out += c;
        if (c == '\n' && ++m_line < 3) out += kLabels[m_line];
    }
    m_pending.erase(0, complete);
    m_text += out;
    return out;
}

} // namespace couplet
