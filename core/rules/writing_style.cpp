#include "writing_style.h"

namespace couplet {

std::string_view styleName(WritingStyle style)
{
    switch (style) {
    case WritingStyle::Festive: return "festive";
    case WritingStyle::Modern: return "modern";
    case WritingStyle::Verse: return "verse";
    case WritingStyle::Classical: return "classical";
    }
    return "festive";
}

std::string styleTokenName(WritingStyle style)
{
    std::string name(1, '<');
    name += styleName(style);
    name += '>';
    return name;
}

std::optional<WritingStyle> parseStyle(std::string_view name)
{
    for (WritingStyle s : kWritingStyles)
        if (styleName(s) == name) return s;
    return std::nullopt;
}

std::string styleNames()
{
    return "festive, modern, verse or classical";
}

} // namespace couplet
