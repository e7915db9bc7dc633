#include "embed_position.h"

#include "utf8.h"

#include <array>
#include <cctype>

namespace couplet {
namespace {

struct NamedPosition {
    int at;
    std::string_view name;   // without 格
    std::string_view pinyin; // for the command line
};

constexpr std::array<NamedPosition, 7> kPositions{{
    {1, "鹤顶", "heding"},
    {2, "燕颔", "yanhan"},
    {3, "鸢肩", "yuanjian"},
    {4, "蜂腰", "fengyao"},
    {5, "鹤膝", "hexi"},
    {6, "凫胫", "fujing"},
    {kEmbedLast, "雁足", "yanzu"},
}};

constexpr std::u32string_view kChineseDigits = U"零一二三四五六";

std::string ordinal(int n)
{
    static constexpr std::array<std::string_view, 7> kOrdinals{"", "1st", "2nd", "3rd", "4th", "5th", "6th"};
    return std::string(kOrdinals[static_cast<std::size_t>(n)]);
}

std::string lowerAscii(std::string_view s)
{
    std::string out;
    for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// 第二字, 第2个字, 二 -> 2: a single digit 1-6, Chinese, ASCII or full-width.
std::optional<int> numberedPosition(std::u32string s)
{
    if (s.starts_with(U"第")) s.erase(0, 1);
    for (std::u32string_view end : {std::u32string_view(U"个字"), std::u32string_view(U"字")})
        if (s.size() > end.size() && std::u32string_view(s).ends_with(end)) s.resize(s.size() - end.size());
    if (s.size() != 1) return std::nullopt;
    const char32_t c = s[0];
    int n = -1;
    if (c >= U'0' && c <= U'9') n = static_cast<int>(c - U'0');
    else if (c >= U'０' && c <= U'９') n = static_cast<int>(c - U'０');
    else if (const auto i = kChineseDigits.find(c); i != std::u32string_view::npos) n = static_cast<int>(i);
    if (n < kEmbedFirst || n > kEmbedMaxNumbered) return std::nullopt;
    return n;
}

} // namespace

std::optional<int> parseEmbedPosition(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    if (utf8::firstInvalid(text) != std::string_view::npos || text.empty()) return std::nullopt;
    const std::string lower = lowerAscii(text);
    if (lower == "last" || text == "末" || text == "末字" || text == "尾" || text == "尾字") return kEmbedLast;
    for (const auto& p : kPositions) {
        if (lower == p.pinyin || text == p.name) return p.at;
        if (text.starts_with(p.name) && text.substr(p.name.size()) == "格") return p.at;
    }
    return numberedPosition(utf8::decode(text));
}

std::string_view embedPositionShortName(int at)
{
    static const std::array<std::string, 7> kFull = [] {
        std::array<std::string, 7> out;
        for (std::size_t i = 0; i < kPositions.size(); ++i) out[i] = std::string(kPositions[i].name) + "格";
        return out;
    }();
    if (at == kEmbedLast) return kFull.back();
    if (at < kEmbedFirst || at > kEmbedMaxNumbered) return {};
    return kFull[static_cast<std::size_t>(at - 1)];
}

std::string embedPositionName(int at)
{
    const std::string name(embedPositionShortName(at));
    if (name.empty()) return "position " + std::to_string(at);
    return name + (at == kEmbedLast ? " (last character)" : " (" + ordinal(at) + " character)");
}

int embedIndex(int at, int length)
{
    if (at == kEmbedLast) return length > 0 ? length - 1 : -1;
    return at - 1;
}

std::string embedPositionProblem(int at, int length)
{
    if (at != kEmbedLast && (at < kEmbedFirst || at > kEmbedMaxNumbered))
        return "嵌名 position " + std::to_string(at) + " is none of " + embedPositionList();
    if (at == kEmbedLast && length == 0) return "嵌名 at 雁足格 (last character) needs a fixed line length";
    if (at == kEmbedLast || length == 0 || at < length) return {};
    std::string fits;
    for (int p = kEmbedFirst; p < length && p <= kEmbedMaxNumbered; ++p)
        fits += std::to_string(p) + " " + std::string(embedPositionShortName(p)) + ", ";
    return "嵌名 at " + embedPositionName(at) + " does not fit a line of " + std::to_string(length)
        + " characters: positions that fit are " + fits + "or last 雁足格";
}

std::string embedPositionList()
{
    std::string out;
    for (const auto& p : kPositions)
        out += (out.empty() ? "" : ", ") + (p.at == kEmbedLast ? std::string("last") : std::to_string(p.at)) + " "
            + std::string(p.name) + "格";
    return out;
}

} // namespace couplet
