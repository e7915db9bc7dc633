#include "prompt_parser.h"

#include "embed_phrase.h"
#include "embed_position.h"
#include "utf8.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

namespace couplet {
namespace {

using U32 = std::u32string;
using View = std::u32string_view;

constexpr char32_t kCut = U'|'; // stands where a recognised piece was taken out
constexpr std::size_t npos = U32::npos;

bool isHan(char32_t c) { return utf8::isHan(c); }
bool isLatinOrDigit(char32_t c) { return c < 0x80 && std::isalnum(static_cast<int>(c)); }
bool isOneOf(char32_t c, View set) { return set.find(c) != View::npos; }
std::string text(View s) { return utf8::encode(s); }

// Full-width ASCII to ASCII (but keep ，), quotes and white space to spaces.
U32 normalized(std::string_view prompt)
{
    U32 in;
    try {
        in = utf8::decode(prompt);
    } catch (const std::invalid_argument& e) {
        throw PromptError(std::string("prompt is not valid UTF-8: ") + e.what());
    }
    for (char32_t& c : in) {
        if (c >= 0xFF01 && c <= 0xFF5E && c != U'，' && c != U'；') c -= 0xFEE0;
        if (isOneOf(c, U"\"'“”‘’「」『』《》〈〉【】()（）\t\r\n　")) c = U' ';
    }
    return in;
}

struct State {
    U32 text;
    ParsedPrompt out;
    bool explicitTheme = false;

    void cut(std::size_t from, std::size_t to) { text.replace(from, to - from, 1, kCut); }
};

std::size_t skipAll(const U32& s, std::size_t p, View set)
{
    while (p < s.size() && isOneOf(s[p], set)) ++p;
    return p;
}

std::size_t hanRunEnd(const U32& s, std::size_t p, std::size_t most = npos)
{
    const std::size_t start = p;
    while (p < s.size() && isHan(s[p]) && p - start < most) ++p;
    return p;
}

// 和 joins two keywords (春节和团圆) unless it is part of a word (家庭和睦, 祥和)
// between short ones.
bool heIsWord(const U32& s, std::size_t i)
{
    static constexpr View kAfter = U"睦谐平美顺气乐畅煦合衷鸣悦";
    static constexpr View kBefore = U"祥温谦柔调饱暖随人太中融共";
    return (i + 1 < s.size() && isOneOf(s[i + 1], kAfter)) || (i > 0 && isOneOf(s[i - 1], kBefore));
}

void splitOnHe(const U32& piece, std::vector<U32>& out)
{
    std::size_t start = 0;
    for (std::size_t i = 0; i < piece.size(); ++i) {
        if (piece[i] != U'和') continue;
        const std::size_t left = i - start, right = piece.size() - i - 1;
        if (left >= 2 && right >= 2 && (!heIsWord(piece, i) || (left >= 4 && right >= 4))) {
            out.push_back(piece.substr(start, i - start));
            start = i + 1;
        }
    }
    out.push_back(piece.substr(start));
}

U32 trimmedKeyword(U32 k)
{
    static constexpr std::array<View, 4> kEnds{U"的", U"等", U"之类", U"方面"};
    for (bool again = true; again;) {
        again = false;
        for (View e : kEnds)
            if (k.size() > e.size() && View(k).ends_with(e)) {
                k.resize(k.size() - e.size());
                again = true;
            }
    }
    return k;
}

// Keywords in a theme span, separated by 、，, spaces, 与, 及, 以及 and (mostly) 和.
std::vector<U32> splitKeywords(const U32& span)
{
    std::vector<U32> pieces;
    U32 current;
    for (std::size_t i = 0; i <= span.size(); ++i) {
        const bool end = i == span.size();
        if (!end && span.compare(i, 2, U"以及") == 0) ++i;
        if (end || !isHan(span[i]) || isOneOf(span[i], U"与及跟")) {
            if (!current.empty()) splitOnHe(current, pieces);
            current.clear();
        } else {
            current.push_back(span[i]);
        }
    }
    std::vector<U32> out;
    for (auto& p : pieces)
        if (auto k = trimmedKeyword(p); !k.empty()) out.push_back(std::move(k));
    return out;
}

void addTheme(State& st, const U32& span)
{
    for (auto& k : splitKeywords(span)) {
        st.out.keywords.push_back(text(k));
        st.explicitTheme = true;
    }
}

} // namespace

namespace {

// A clause after the given 上联 that asks for something (，请对下联) is not part of it.
bool isRequestClause(View clause)
{
    static constexpr std::array<View, 14> kStarts{U"请", U"求", U"帮", U"对下联", U"对出", U"配", U"写",
                                                 U"下联", U"横批", U"并", U"要", U"再", U"给", U"麻烦"};
    return std::any_of(kStarts.begin(), kStarts.end(), [&](View s) { return clause.starts_with(s); });
}

// 上联：春回大地千山秀，… : the given upper line, up to a clause that asks for something.
void takeUpper(State& st)
{
    U32& s = st.text;
    for (std::size_t at = s.find(U"上联"); at != npos; at = s.find(U"上联", at + 2)) {
        const std::size_t p = skipAll(s, at + 2, U": 是为");
        std::size_t q = p;
        while (q < s.size() && (isHan(s[q]) || isOneOf(s[q], U"，,、"))) ++q;
        U32 upper;
        std::size_t used = p;
        for (std::size_t c = p; c < q;) {
            std::size_t e = c;
            while (e < q && !isOneOf(s[e], U"，,")) ++e;
            if (isRequestClause(View(s).substr(c, e - c))) break;
            if (!upper.empty()) upper.push_back(U'，');
            upper.append(s, c, e - c);
            used = e;
            c = e + 1;
        }
        // 上联：hello / 上联：春风hello: a given 上联 in other letters is refused, not
        // cut short or read as a theme of 上.
        std::size_t latin = used == q ? q : npos;
        if (upper.empty()) latin = p;
        if (latin != npos && latin < s.size() && isLatinOrDigit(s[latin])) {
            std::size_t end = latin;
            while (end < s.size() && (isLatinOrDigit(s[end]) || isOneOf(s[end], U"'-"))) ++end;
            throw PromptError("the given 上联 must be Chinese characters; \"" + text(View(s).substr(latin, end - latin)) +
                              "\" is not (after " + text(View(s).substr(at, latin - at)) + ")");
        }
        while (!upper.empty() && !isHan(upper.back())) upper.pop_back();
        if (upper.empty()) continue;
        st.out.spec.upper = text(upper);
        st.out.spec.mode = PromptMode::Upper;
        st.cut(at, used);
        return;
    }
}

// 横批阖家欢乐 / 横批：阖家欢乐 / 以阖家欢乐为横批; a bare 横批 (四字横批, 带横批) is framing.
void takeHengpi(State& st)
{
    U32& s = st.text;
    const std::size_t at = s.find(U"横批");
    if (at == npos) return;
    const std::size_t p = skipAll(s, at + 2, U": 是为用要就");
    if (hanRunEnd(s, p, 4) == p + 4) {
        st.out.spec.hengpi = text(s.substr(p, 4));
        st.cut(at, p + 4);
        return;
    }
    std::size_t before = at;
    if (before >= 2 && s.compare(before - 2, 2, U"作为") == 0) before -= 2;
    else if (before >= 1 && isOneOf(s[before - 1], U"为作当")) before -= 1;
    if (before != at && before >= 4 && std::all_of(s.begin() + before - 4, s.begin() + before, isHan)) {
        st.out.spec.hengpi = text(s.substr(before - 4, 4));
        std::size_t from = before - 4;
        if (from > 0 && isOneOf(s[from - 1], U"以用拿把")) --from;
        st.cut(from, at + 2);
        return;
    }
    std::size_t from = at;
    if (from >= 2 && s[from - 1] == U'字' && isOneOf(s[from - 2], U"四4")) from -= 2;
    st.out.ignored.push_back(text(s.substr(from, at + 2 - from)));
    st.cut(from, at + 2);
}

constexpr std::array<View, 7> kMarkers{U"藏头", U"嵌名", U"嵌字", U"嵌入", U"藏字", U"鹤顶", U"嵌"};

// Up to two characters after 藏头/嵌字 (藏头春福, 藏头字为：春福), else before it (以春福藏头,
// 春福二字藏头, 用“龙”“兴”藏头). Spans may hold spaces (quotes); only Han characters count.
using Span = std::pair<std::size_t, std::size_t>;

std::optional<Span> acrosticAfter(const U32& s, std::size_t p)
{
    p = skipAll(s, p, U" :字为是格");
    if (p >= s.size() || !isHan(s[p]) || isOneOf(s[p], U"的之五七九四六八十一二三两写生创作来做诗"))
        return std::nullopt;
    for (View word : {View(U"春联"), View(U"对联"), View(U"楹联"), View(U"联")})
        if (View(s).substr(p).starts_with(word)) return std::nullopt;
    std::size_t e = p, taken = 0;
    while (e < s.size() && taken < 2 && (isHan(s[e]) || s[e] == U' ')) taken += isHan(s[e++]) ? 1 : 0;
    while (e > p && s[e - 1] == U' ') --e;
    return Span{p, e};
}

std::optional<Span> acrosticBefore(const U32& s, std::size_t at)
{
    std::size_t e = at;
    while (e > 0 && s[e - 1] == U' ') --e;
    if (e > 0 && s[e - 1] == U'字') --e;
    if (e > 0 && isOneOf(s[e - 1], U"二两俩")) --e;
    while (e > 0 && s[e - 1] == U' ') --e;
    std::size_t b = e, taken = 0;
    while (b > 0 && taken < 2 && (s[b - 1] == U' ' || (isHan(s[b - 1]) && !isOneOf(s[b - 1], U"以用把将"))))
        taken += isHan(s[--b]) ? 1 : 0;
    if (b > 0 && isOneOf(s[b - 1], U"以用把将")) return Span{b, e};
    while (b < e && (s[b] == U' ' || isOneOf(s[b], U"一副幅的写个联对生成"))) ++b;
    if (b == e) return std::nullopt;
    return Span{b, e};
}

// The 以/用 that anchors a span before the marker (以春福藏头), or npos.
std::size_t anchorOf(const U32& s, const std::optional<Span>& span)
{
    if (!span) return npos;
    std::size_t k = span->first;
    while (k > 0 && s[k - 1] == U' ') --k;
    return k > 0 && isOneOf(s[k - 1], U"以用把将") ? k - 1 : npos;
}

std::string hanOnly(View s)
{
    U32 out;
    std::copy_if(s.begin(), s.end(), std::back_inserter(out), isHan);
    return text(out);
}

bool takeAcrosticAt(State& st, std::size_t at, View marker)
{
    U32& s = st.text;
    auto span = acrosticBefore(s, at);
    const std::size_t anchor = anchorOf(s, span);
    const bool anchored = anchor != npos;
    if (!anchored) span = acrosticAfter(s, at + marker.size());
    if (!anchored && !span) span = acrosticBefore(s, at);
    if (!span) return false;
    std::size_t from = at, to = at + marker.size();
    if (span->first > at) {
        to = span->second;
        // 嵌“德”“顺”二字: the count goes with the characters, not to the length.
        std::size_t count = skipAll(s, to, U" ");
        if (count < s.size() && isOneOf(s[count], U"二两俩")) ++count;
        if (count < s.size() && s[count] == U'字') to = count + 1;
    } else {
        from = anchored ? anchor : span->first;
    }
    st.out.spec.acrostic = hanOnly(View(s).substr(span->first, span->second - span->first));
    if (st.out.spec.embedAt != 1)
        st.out.notes.push_back("嵌名 at " + embedPositionName(st.out.spec.embedAt) + " of 上联 and 下联");
    else if (marker != U"藏头" && marker != U"鹤顶")
        st.out.notes.push_back(text(marker) + " is written as 藏头 (鹤顶格): the characters begin 上联 and 下联");
    st.cut(from, to);
    return true;
}

// 燕颔格, 嵌于第二字, 末字: the position; the phrase stands for 嵌名 where the
// prompt has no other marker (德顺燕颔格), else it is taken out.
void takeEmbedPosition(State& st)
{
    const auto phrase = findEmbedPhrase(st.text);
    if (!phrase) return;
    st.out.spec.embedAt = phrase->at;
    U32& s = st.text;
    s.erase(phrase->from, phrase->to - phrase->from);
    const bool marked = std::any_of(kMarkers.begin(), kMarkers.end(), [&](View m) { return s.find(m) != npos; });
    s.insert(phrase->from, marked ? U32(1, kCut) : U32(U"嵌名"));
}

void takeAcrostic(State& st)
{
    U32& s = st.text;
    for (View marker : kMarkers) {
        // A bare mention (写一副藏头春联) is framing; the characters may come with a later one.
        for (std::size_t at = s.find(marker); at != npos; at = s.find(marker, at)) {
            if (st.out.spec.acrostic.empty() && takeAcrosticAt(st, at, marker)) return;
            st.out.ignored.push_back(text(marker));
            st.cut(at, at + marker.size());
        }
    }
}

} // namespace

namespace {

// 七, 十一, 二十, 7, 11: the number ending just before `end`, and where it starts.
std::optional<std::pair<int, std::size_t>> numberBefore(const U32& s, std::size_t end)
{
    static constexpr View kDigits = U"零一二三四五六七八九";
    std::size_t b = end;
    while (b > 0 && ((s[b - 1] >= U'0' && s[b - 1] <= U'9') || isOneOf(s[b - 1], U"零一二三四五六七八九十两")))
        --b;
    if (b == end || end - b > 3) return std::nullopt;
    int value = 0, pending = 0;
    bool arabic = false;
    for (std::size_t i = b; i < end; ++i) {
        const char32_t c = s[i];
        if (c < 128) {
            value = value * 10 + static_cast<int>(c - U'0');
            arabic = true;
        } else if (c == U'十') {
            value += (pending == 0 ? 1 : pending) * 10;
            pending = 0;
        } else {
            pending = c == U'两' ? 2 : static_cast<int>(kDigits.find(c));
        }
    }
    if (!arabic) value += pending;
    return std::make_pair(value, b);
}

// 五言, 七言, 九言, 7字, 十一个字 (每联 before it is framing).
void takeLength(State& st)
{
    U32& s = st.text;
    bool found = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (!isOneOf(s[i], U"言字")) continue;
        std::size_t numberEnd = i;
        if (s[i] == U'字' && i > 0 && s[i - 1] == U'个') --numberEnd;
        const auto n = numberBefore(s, numberEnd);
        if (!n) continue;
        std::size_t from = n->second;
        if (from >= 2 && (s.compare(from - 2, 2, U"每联") == 0 || s.compare(from - 2, 2, U"每句") == 0)) from -= 2;
        if (!found) st.out.spec.length = n->first;
        else st.out.ignored.push_back(text(s.substr(from, i + 1 - from)));
        found = true;
        st.cut(from, i + 1);
        i = from;
    }
}

// Where a theme span starting at `p` ends: at 的, a cut, or a sentence end.
std::size_t themeEnd(const U32& s, std::size_t p)
{
    while (p < s.size() && s[p] != U'的' && s[p] != kCut && !isOneOf(s[p], U"。.!?;；:")) ++p;
    return p;
}

// 关于X的, 有关X的, 围绕X, 主题是X, 关键词：X.
bool takeThemeAfter(State& st, View marker, View skip)
{
    U32& s = st.text;
    const std::size_t at = s.find(marker);
    if (at == npos) return false;
    const std::size_t p = skipAll(s, at + marker.size(), skip);
    const std::size_t e = themeEnd(s, p);
    addTheme(st, s.substr(p, e - p));
    st.cut(at, e < s.size() && s[e] == U'的' ? e + 1 : e);
    return true;
}

// 以X为主题, 用X为题, 以X为主.
bool takeThemeAround(State& st)
{
    static constexpr std::array<View, 4> kEnds{U"为主题", U"作主题", U"为题", U"为主"};
    U32& s = st.text;
    for (View end : kEnds) {
        const std::size_t at = s.find(end);
        if (at == npos) continue;
        std::size_t b = at;
        while (b > 0 && s[b - 1] != kCut && !isOneOf(s[b - 1], U"以用拿")) --b;
        if (b == 0 || s[b - 1] == kCut) continue;
        addTheme(st, s.substr(b, at - b));
        std::size_t to = at + end.size();
        if (to < s.size() && s[to] == U'的') ++to;
        st.cut(b - 1, to);
        return true;
    }
    return false;
}

void takeTheme(State& st)
{
    bool any = false;
    any |= takeThemeAfter(st, U"关于", U" :");
    any |= takeThemeAfter(st, U"有关", U" :");
    any |= takeThemeAround(st);
    any |= takeThemeAfter(st, U"主题", U" :是为");
    any |= takeThemeAfter(st, U"关键词", U" :是为");
    any |= takeThemeAfter(st, U"关键字", U" :是为");
    if (!any) takeThemeAfter(st, U"围绕", U" :");
}

// 适合贴在大门上的, 贴在店铺门口: where the couplet goes is framing.
void dropPlacement(State& st)
{
    U32& s = st.text;
    for (View marker : {View(U"适合贴在"), View(U"适合贴于"), View(U"贴在"), View(U"用于")}) {
        const std::size_t at = s.find(marker);
        if (at == npos) continue;
        std::size_t e = at + marker.size();
        while (e < s.size() && isHan(s[e]) && s[e] != U'的') ++e;
        if (e < s.size() && s[e] == U'的') ++e;
        st.out.ignored.push_back(text(s.substr(at, e - at)));
        st.cut(at, e);
    }
}

} // namespace

namespace {

// Requests and framing at the start or end of a leftover piece, longest first.
constexpr std::array<View, 33> kFramePrefixes{
    U"的", U"请帮我", U"请给我", U"麻烦", U"帮忙", U"帮我", U"给我", U"为我", U"替我", U"我想要", U"我要", U"想要", U"需要",
    U"请", U"来一副", U"来一幅", U"做一副", U"出一副", U"作一副", U"生成", U"创作", U"撰写", U"写出", U"写",
    U"一副", U"一幅", U"一对", U"两副", U"副", U"幅", U"春联", U"对联", U"楹联"};
constexpr std::array<View, 14> kFrameSuffixes{
    U"春联", U"对联", U"楹联", U"联", U"的", U"吧", U"呢", U"啊", U"谢谢", U"一下", U"一副", U"好吗", U"可以吗", U"下联"};
constexpr std::array<View, 8> kFrameWords{U"一副", U"一幅", U"春联", U"对联", U"楹联", U"生成", U"谢谢", U"下联"};

bool stripOne(U32& piece, View word, bool front, std::vector<std::string>& dropped)
{
    if (piece.size() < word.size() || !(front ? View(piece).starts_with(word) : View(piece).ends_with(word)))
        return false;
    dropped.push_back(text(word));
    piece.erase(front ? 0 : piece.size() - word.size(), word.size());
    return true;
}

// What is left of a piece of leftover text once framing words are taken off.
U32 withoutFraming(U32 piece, std::vector<std::string>& dropped)
{
    for (View w : kFrameWords)
        for (std::size_t at = piece.find(w); at != npos; at = piece.find(w)) {
            dropped.push_back(text(w));
            piece.replace(at, w.size(), 1, kCut);
        }
    U32 out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= piece.size(); ++i) {
        if (i < piece.size() && piece[i] != kCut) continue;
        U32 part = piece.substr(start, i - start);
        for (bool again = true; again && !part.empty();) {
            again = false;
            for (View w : kFramePrefixes)
                if (stripOne(part, w, true, dropped)) again = true;
            for (View w : kFrameSuffixes)
                if (stripOne(part, w, false, dropped)) again = true;
        }
        if (!part.empty()) out += (out.empty() ? U"" : U"、") + part;
        start = i + 1;
    }
    return out;
}

// The Han runs still in the text after everything recognised was cut out.
std::vector<U32> leftoverPieces(const U32& s)
{
    std::vector<U32> pieces;
    U32 current;
    for (char32_t c : s) {
        if (isHan(c)) {
            current.push_back(c);
        } else if (!current.empty()) {
            pieces.push_back(std::move(current));
            current.clear();
        }
    }
    if (!current.empty()) pieces.push_back(std::move(current));
    return pieces;
}

void useLeftover(State& st)
{
    U32 theme;
    for (const auto& piece : leftoverPieces(st.text)) {
        const U32 rest = withoutFraming(piece, st.out.ignored);
        if (!rest.empty()) theme += (theme.empty() ? U"" : U"、") + rest;
    }
    if (theme.empty()) return;
    if (st.explicitTheme || st.out.spec.mode == PromptMode::Upper) {
        st.out.ignored.push_back(text(theme));
        return;
    }
    addTheme(st, theme);
}

std::string joined(const std::vector<std::string>& items, const std::string& separator)
{
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : separator) + i;
    return out;
}

} // namespace

ParsedPrompt PromptParser::parse(std::string_view prompt)
{
    State st;
    st.text = normalized(prompt);
    if (std::none_of(st.text.begin(), st.text.end(), isHan))
        throw PromptError("the prompt has no Han characters: write what the couplet is about in Chinese, "
                          "e.g. 生成一副关于春节的七言春联");
    takeUpper(st);
    takeHengpi(st);
    takeEmbedPosition(st);
    takeAcrostic(st);
    takeLength(st);
    dropPlacement(st);
    if (st.out.spec.mode != PromptMode::Upper) takeTheme(st);
    useLeftover(st);
    auto& spec = st.out.spec;
    spec.keywords = joined(st.out.keywords, " ");
    if (spec.mode != PromptMode::Upper && spec.keywords.empty()) {
        if (spec.acrostic.empty())
            throw PromptError("the prompt names no theme, 上联 or 藏头 characters (only framing: "
                              + joined(st.out.ignored, "、") + "); say what it is about, e.g. 关于春节");
        spec.mode = PromptMode::Acrostic;
    }
    return st.out;
}

} // namespace couplet
