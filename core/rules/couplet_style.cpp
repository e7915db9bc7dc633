#include "couplet_style.h"

namespace couplet {

std::string_view styleName(CoupletStyle style)
{
    switch (style) {
    case CoupletStyle::Festive: return "festive";
    case CoupletStyle::Modern: return "modern";
    case CoupletStyle::Verse: return "verse";
    case CoupletStyle::Classical: return "classical";
    }
    return "festive";
}

std::string styleTokenName(CoupletStyle style)
{
    std::string name(1, '<');
    name += styleName(style);
    name += '>';
    return name;
}

std::optional<CoupletStyle> parseStyle(std::string_view name)
{
    for (CoupletStyle s : kCoupletStyles)
        if (styleName(s) == name) return s;
    return std::nullopt;
}

std::string styleNames()
{
    return "festive, modern, verse or classical";
}

} // namespace couplet
