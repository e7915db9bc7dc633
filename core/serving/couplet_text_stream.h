#pragma once

#include "output_script.h"

#include <string>
#include <string_view>

namespace couplet {

// Turns a policy's text "上联\n下联\n横批", piece by piece as it streams, into
// the completion text "上联：…\n下联：…\n横批：…". A piece never ends inside a
// UTF-8 character: an incomplete one is held back until the rest arrives.
// In another script than Simplified a line is held back until it is
// complete and converted whole, by phrase (发 -> 發 or 髮 by its neighbours).
class CoupletTextStream {
public:
    explicit CoupletTextStream(OutputScript script = OutputScript::Simplified) : m_script(script) {}

    // The formatted text that `raw` completes; may be empty.
    std::string push(std::string_view raw);
    // At the end of the sequence: what is still held back (the last line).
    std::string finish();
    // Everything formatted so far.
    const std::string& text() const { return m_text; }

private:
    std::string convertHeld(); // the held line, converted; empties it

    OutputScript m_script;
    std::string m_pending; // bytes of an incomplete character
    std::string m_lineHeld; // the line being written, in another script
    int m_line = 0;
    bool m_started = false;
    std::string m_text;
};

} // namespace couplet
