#include "embed_phrase.h"

#include "embed_position.h"

#include <array>
#include <string_view>

namespace couplet {
namespace {

using View = std::u32string_view;
constexpr std::size_t npos = std::u32string::npos;

struct Name {
    View text;
    int at;
};

// Longest first, so that 鹤顶格 is taken whole rather than as 鹤顶.
constexpr std::array<Name, 14> kNames{{
    {U"鹤顶格", 1}, {U"燕颔格", 2}, {U"鸢肩格", 3}, {U"蜂腰格", 4}, {U"鹤膝格", 5}, {U"凫胫格", 6}, {U"雁足格", kEmbedLast},
    {U"鹤顶", 1}, {U"燕颔", 2}, {U"鸢肩", 3}, {U"蜂腰", 4}, {U"鹤膝", 5}, {U"凫胫", 6}, {U"雁足", kEmbedLast},
}};

constexpr View kLastWords[] = {U"最后一字", U"最后一个字", U"末字", U"末尾", U"句尾", U"尾字"};

// 第二字, 第2个字 at `p` (pointing at 第): the position and the phrase's end.
std::optional<std::pair<int, std::size_t>> ordinalAt(const std::u32string& s, std::size_t p)
{
    static constexpr View kDigits = U"零一二三四五六";
    if (p + 2 >= s.size()) return std::nullopt;
    const char32_t c = s[p + 1];
    int n = c >= U'1' && c <= U'6' ? static_cast<int>(c - U'0') : -1;
    if (const auto i = kDigits.find(c); i != View::npos && i > 0) n = static_cast<int>(i);
    if (n < 1) return std::nullopt;
    std::size_t end = p + 2;
    if (s[end] == U'个' && end + 1 < s.size()) ++end;
    if (s[end] != U'字') return std::nullopt;
    return std::pair{n, end + 1};
}

// Takes a 在, 于, 放在 or 位于 just before the phrase with it.
std::size_t withPreposition(const std::u32string& s, std::size_t from)
{
    for (View p : {View(U"放在"), View(U"位于"), View(U"在"), View(U"于")})
        if (from >= p.size() && View(s).substr(from - p.size(), p.size()) == p) return from - p.size();
    return from;
}

} // namespace

std::optional<EmbedPhrase> findEmbedPhrase(const std::u32string& s)
{
    std::optional<EmbedPhrase> best;
    const auto consider = [&](std::size_t from, std::size_t to, int at) {
        if (!best || from < best->from) best = EmbedPhrase{at, withPreposition(s, from), to};
    };
    for (const auto& n : kNames)
        if (const auto at = s.find(n.text); at != npos && (!best || at < best->from)) consider(at, at + n.text.size(), n.at);
    if (s.find(U'嵌') == npos && s.find(U'藏') == npos) return best;
    for (std::size_t p = s.find(U'第'); p != npos; p = s.find(U'第', p + 1))
        if (const auto o = ordinalAt(s, p)) consider(p, o->second, o->first);
    for (View w : kLastWords)
        if (const auto at = s.find(w); at != npos) consider(at, at + w.size(), kEmbedLast);
    return best;
}

} // namespace couplet
