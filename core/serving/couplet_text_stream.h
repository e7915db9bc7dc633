#pragma once

#include <string>
#include <string_view>

namespace couplet {

// Turns a policy's text "上联\n下联\n横批", piece by piece as it streams, into
// the completion text "上联：…\n下联：…\n横批：…". A piece never ends inside a
// UTF-8 character: an incomplete one is held back until the rest arrives.
class CoupletTextStream {
public:
    // The formatted text that `raw` completes; may be empty.
    std::string push(std::string_view raw);
    // Everything formatted so far.
    const std::string& text() const { return m_text; }

private:
    std::string m_pending; // bytes of an incomplete character
    int m_line = 0;
    bool m_started = false;
    std::string m_text;
};

} // namespace couplet
