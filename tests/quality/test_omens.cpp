// No words of mourning in a 春联 (omens.h): the model, trained on every kind
// of couplet, writes 死心 or 无常 now and then; the constraints keep them out of
// the 上联, the 下联 and a free 横批, except where the user asked for them.
// Nor a year of an animal outside the cycle (凤岁).
#include "couplet_constraints.h"
#include "couplet_model.h"
#include "generate.h"
#include "prompt_case.h"
#include "omens.h"
#include "tone_table.h"
#include "utf8.h"
#include "vocab.h"

#include <check.h>

#include <algorithm>

using namespace couplet;

namespace {

bool allows(const std::vector<int>& allowed, int token)
{
    return std::find(allowed.begin(), allowed.end(), token) != allowed.end();
}

struct Rig {
    explicit Rig(std::u32string_view characters = U"死无常福春新年心喜离世安情")
        : vocab{std::vector<char32_t>(characters.begin(), characters.end())}
    {
    }
    Vocab vocab;
    ToneTable tones;
    TokenClasses classes{vocab, tones};
    PhraseTrie trie; // empty: the 横批 is free
    int id(char32_t c) const { return vocab.id(c); }
    // The constraints' spec for a given 上联: the 下联 is written facing it.
    ConstraintSpec facing(const std::string& upper) const
    {
        ConstraintSpec spec;
        spec.upper = vocab.encode(upper);
        return spec;
    }
    void write(CoupletConstraints& c, std::u32string_view text) const
    {
        for (char32_t ch : text) {
            CHECK(allows(c.allowed(), id(ch)));
            c.advance(id(ch));
        }
    }
};

ConstraintSpec ofLength(int length)
{
    ConstraintSpec spec;
    spec.length = length;
    return spec;
}

// A couplet whose user asked for a keyword of mourning (死) and a 下联
// starting with 春: what changes the 上联's pool.
ConstraintSpec ownCharacters(const Rig& r, int length)
{
    ConstraintSpec own;
    own.length = length;
    own.requiredKeywords = {r.vocab.encode("死")};
    own.acrosticLower = r.id(U'春');
    return own;
}

// Whether `text` holds a character or a word of omens.h.
bool ominous(const std::u32string& text)
{
    for (char32_t c : text)
        if (kOmenCharacters.find(c) != std::u32string_view::npos) return true;
    for (std::u32string_view w : kOmenWords)
        if (text.find(w) != std::u32string::npos) return true;
    for (std::u32string_view w : kFalseYearWords)
        if (text.find(w) != std::u32string::npos) return true;
    return false;
}

} // namespace

COUPLET_TEST(charactersOfMourningAreNotWritten)
{
    const Rig r;
    CHECK(r.classes.omen[static_cast<std::size_t>(r.id(U'死'))]);
    CHECK(!r.classes.omen[static_cast<std::size_t>(r.id(U'无'))]);
    ConstraintSpec spec;
    spec.length = 3;
    CoupletConstraints c(r.classes, r.trie, spec);
    CHECK(!allows(c.allowed(), r.id(U'死')));
    CHECK(allows(c.allowed(), r.id(U'常'))); // fine alone
    r.write(c, U"无");
    CHECK(!allows(c.allowed(), r.id(U'常'))); // 无常
    CHECK(allows(c.allowed(), r.id(U'心')));
    r.write(c, U"心喜");
    c.advance(tok::kLower);
    CHECK(!allows(c.allowed(), r.id(U'死')));
    r.write(c, U"离");
    CHECK(!allows(c.allowed(), r.id(U'世'))); // 离世
    r.write(c, U"福春");
    c.advance(tok::kHengpi);
    CHECK(!allows(c.allowed(), r.id(U'死')) && allows(c.allowed(), r.id(U'安')));
}

// Not only death: 欣开好梦福无情 came out for a wedding.
COUPLET_TEST(heartlessWordsAreNotWritten)
{
    const Rig r;
    ConstraintSpec spec;
    spec.length = 3;
    CoupletConstraints c(r.classes, r.trie, spec);
    CHECK(allows(c.allowed(), r.id(U'情'))); // fine alone
    r.write(c, U"福无");
    CHECK(!allows(c.allowed(), r.id(U'情'))); // 无情
    CHECK(allows(c.allowed(), r.id(U'心')));  // 无心 is not on the list
    r.write(c, U"心");
    c.advance(tok::kLower);
    r.write(c, U"情");                        // 情 after another character
}

// Regret (悔) is a character of sorrow; life as a dream (若梦) and high
// summer (夏来, 盛夏) are words a 春联 does not write, though 梦 and 夏 alone
// (好梦, 华夏) stay.
COUPLET_TEST(lamentsAndSummerAreNotWritten)
{
    const Rig r{U"若梦好悔夏来盛华春"};
    const auto& [vocab, tones, classes, trie] = r;
    CHECK(classes.omen[static_cast<std::size_t>(vocab.id(U'悔'))]);
    ConstraintSpec spec;
    spec.length = 4;
    CoupletConstraints c(classes, trie, spec);
    CHECK(!allows(c.allowed(), vocab.id(U'悔')));
    c.advance(vocab.id(U'若'));
    CHECK(!allows(c.allowed(), vocab.id(U'梦'))); // 若梦
    c.advance(vocab.id(U'好'));
    CHECK(allows(c.allowed(), vocab.id(U'梦')));  // 好梦
    c.advance(vocab.id(U'盛'));
    CHECK(!allows(c.allowed(), vocab.id(U'夏'))); // 盛夏
    CHECK(allows(c.allowed(), vocab.id(U'华')));
    c.advance(vocab.id(U'华'));
    CHECK(allows(c.allowed(), tok::kLower));
    ConstraintSpec after;
    after.length = 3;
    CoupletConstraints h(classes, trie, after);
    h.advance(vocab.id(U'华'));
    CHECK(allows(h.allowed(), vocab.id(U'夏'))); // 华夏
    h.advance(vocab.id(U'夏'));
    CHECK(!allows(h.allowed(), vocab.id(U'来'))); // 夏来
}

// The 下联 does not answer 春 with 夏 (春到人间 / 夏来世上); elsewhere 夏
// may stand, and a user's 藏头 夏 is theirs.
COUPLET_TEST(springIsNotAnsweredWithSummer)
{
    const Rig r{U"春到人夏来世福华"};
    const auto& [vocab, tones, classes, trie] = r;
    CoupletConstraints c(classes, trie, r.facing("春到人"));
    CHECK(!allows(c.allowed(), vocab.id(U'夏')));
    CHECK(allows(c.allowed(), vocab.id(U'福')));
    c.advance(vocab.id(U'福'));
    CHECK(allows(c.allowed(), vocab.id(U'夏'))); // facing 到
    ConstraintSpec acrostic = r.facing("春到人");
    acrostic.acrosticLower = vocab.id(U'夏');
    CoupletConstraints a(classes, trie, acrostic);
    CHECK_EQ(a.allowed(), std::vector<int>{vocab.id(U'夏')});
}

COUPLET_TEST(theUsersOwnWordsStay)
{
    const Rig r;
    ConstraintSpec spec;
    spec.length = 3;
    spec.requiredKeywords = {r.vocab.encode("无常")}; // a user who wants it gets it
    CoupletConstraints c(r.classes, r.trie, spec);
    r.write(c, U"无常");
    ConstraintSpec acrostic;
    acrostic.length = 2;
    acrostic.acrosticUpper = r.id(U'死');
    CoupletConstraints a(r.classes, r.trie, acrostic);
    CHECK_EQ(a.allowed(), std::vector<int>{r.id(U'死')});
}

// The 上联's characters come from a pool made once per model; the user's own
// tokens change it for that couplet only: a keyword of mourning may stand
// anywhere in the 上联 (not only where it is forced), the 下联's 藏头
// character nowhere in it, and another couplet keeps the model's pool.
COUPLET_TEST(theUsersOwnCharactersChangeTheUpperPoolOfTheirCoupletOnly)
{
    const Rig r;
    CoupletConstraints c(r.classes, r.trie, ownCharacters(r, 5));
    CHECK(allows(c.allowed(), r.id(U'死')));  // room is left: not forced, yet allowed
    CHECK(allows(c.allowed(), r.id(U'福')));
    CHECK(!allows(c.allowed(), r.id(U'春'))); // the 下联 starts with it
    r.write(c, U"福");
    CHECK(allows(c.allowed(), r.id(U'死')) && !allows(c.allowed(), r.id(U'春')));

    CoupletConstraints plain(r.classes, r.trie, ofLength(5));
    CHECK(!allows(plain.allowed(), r.id(U'死')));
    CHECK(allows(plain.allowed(), r.id(U'春')));
    CHECK(plain.allowed() == r.classes.upperPool(-1, false).ids);
}

// Where allowed() hands out a pool, its mask holds the same tokens: every
// step of a couplet, with and without the user's own characters.
COUPLET_TEST(theAllowedMaskHoldsTheAllowedTokens)
{
    const Rig r;
    int masked = 0;
    for (const ConstraintSpec& spec : {ofLength(4), ownCharacters(r, 4)}) {
        CoupletConstraints c(r.classes, r.trie, spec);
        for (char32_t ch : std::u32string_view(U"福新喜死\x01春安年心\x02")) {
            const auto& allowed = c.allowed();
            if (const TokenMask* mask = c.allowedMask()) {
                ++masked;
                int bits = 0;
                for (int t = 0; t < r.vocab.size(); ++t) bits += mask->has(t) ? 1 : 0;
                CHECK_EQ(bits, static_cast<int>(allowed.size()));
                for (int t : allowed) CHECK(mask->has(t));
            }
            const int token = ch == U'\x01' ? tok::kLower : ch == U'\x02' ? tok::kHengpi : r.id(ch);
            if (!allows(allowed, token)) break; // (the plain couplet may not write 死)
            c.advance(token);
        }
    }
    CHECK(masked >= 4);
}

// No pair of characters twice in the 上联: after 福新喜福 it may not write 新
// again (福新 ... 福新); a single repeat (福 ... 福) and 叠字 (喜喜) stay, a
// third 喜 does not.
COUPLET_TEST(aPairOfCharactersIsNotWrittenTwiceInALine)
{
    const Rig r;
    CoupletConstraints c(r.classes, r.trie, ofLength(9));
    r.write(c, U"福新喜福");
    CHECK(!allows(c.allowed(), r.id(U'新')));
    CHECK(allows(c.allowed(), r.id(U'安')) && allows(c.allowed(), r.id(U'喜')));
    r.write(c, U"安年年");
    CHECK(!allows(c.allowed(), r.id(U'年'))); // 年年年
    CHECK(allows(c.allowed(), r.id(U'春')));
    r.write(c, U"喜");
    CHECK(!allows(c.allowed(), r.id(U'福'))); // 喜福 again
}

// 龙年 is answered with 春日 or 盛世, not with 凤岁 (a phoenix year) nor 凤日.
COUPLET_TEST(aLineDoublesOnlyCharactersThatDouble)
{
    const Rig r(U"财源广进年平安团圆喜气");
    // 年年 is a 叠字; 财财 and 进进 are stutters.
    CoupletConstraints years(r.classes, r.trie, ofLength(7));
    r.write(years, U"年");
    CHECK(allows(years.allowed(), r.id(U'年')));
    CoupletConstraints money(r.classes, r.trie, ofLength(7));
    r.write(money, U"财源广进");
    CHECK(!allows(money.allowed(), r.id(U'进')));
    CHECK(allows(money.allowed(), r.id(U'财'))); // not doubled: no stutter
    r.write(money, U"财");
    CHECK(!allows(money.allowed(), r.id(U'财')));
    // The second pair of AABB: 平平安 may go on with 安.
    CoupletConstraints calm(r.classes, r.trie, ofLength(7));
    r.write(calm, U"平平安");
    CHECK(allows(calm.allowed(), r.id(U'安')));
    // 圆 doubles (团团圆圆), but not right after the keyword 团圆 it ends.
    CoupletConstraints free(r.classes, r.trie, ofLength(7));
    r.write(free, U"团圆");
    CHECK(allows(free.allowed(), r.id(U'圆')));
    ConstraintSpec reunion = ofLength(7);
    reunion.themes = {r.vocab.encode("团圆")};
    CoupletConstraints kept(r.classes, r.trie, reunion);
    r.write(kept, U"团圆");
    CHECK(!allows(kept.allowed(), r.id(U'圆')));
    for (char32_t c : kReduplicable) CHECK(kOmenCharacters.find(c) == std::u32string_view::npos);
}

COUPLET_TEST(shippedModelDoesNotStutter)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    auto decoder = model->makeDecoder();
    // Keywords after which the model doubled what does not double
    // (财源广进财财旺, 团圆圆美梦, 千家富贵贵民心).
    const testing::PromptCase cases[] = {{PromptMode::Keywords, "财源", 7}, {PromptMode::Keywords, "团圆", 5},
                                         {PromptMode::Keywords, "富贵", 7}};
    int checked = 0;
    for (const auto& k : cases) {
        GenerationSpec spec = k.unrankedSpec(16);
        spec.sampling.seed = 11;
        for (const auto& c : generateCouplets(*model, *decoder, spec)) {
            const std::u32string upper = utf8::decode(c.upper);
            for (std::size_t i = 0; i + 1 < upper.size(); ++i) {
                if (upper[i] != upper[i + 1]) continue;
                const bool aabb = i >= 2 && upper[i - 2] == upper[i - 1];
                if (!aabb && kReduplicable.find(upper[i]) == std::u32string_view::npos)
                    ::couplet::test::fail(__FILE__, __LINE__, "stutter: " + c.upper);
            }
            const std::u32string keyword = utf8::decode(k.text);
            if (upper.find(keyword + keyword.back()) != std::u32string::npos)
                ::couplet::test::fail(__FILE__, __LINE__, "the keyword's last character doubled: " + c.upper);
            ++checked;
        }
    }
    CHECK_EQ(checked, 3 * 16);
}

COUPLET_TEST(aNamedYearIsAnsweredWithAYearWord)
{
    const Rig r{U"龙年凤岁春日大吉好"};
    const auto& [vocab, tones, classes, trie] = r;
    CoupletConstraints c(classes, trie, r.facing("龙年大吉"));
    CHECK_EQ(c.allowed(), std::vector<int>{vocab.id(U'春')}); // the only year word left
    c.advance(vocab.id(U'春'));
    CHECK(allows(c.allowed(), vocab.id(U'日')) && allows(c.allowed(), vocab.id(U'凤')));
    // Elsewhere 凤 may come, but not 岁 after it.
    ConstraintSpec free;
    free.length = 3;
    CoupletConstraints f(classes, trie, free);
    CHECK(allows(f.allowed(), vocab.id(U'凤')));
    f.advance(vocab.id(U'凤'));
    CHECK(!allows(f.allowed(), vocab.id(U'岁')) && !allows(f.allowed(), vocab.id(U'年')));
    CHECK(allows(f.allowed(), vocab.id(U'日')));
}

COUPLET_TEST(shippedModelWritesNoOmens)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    auto decoder = model->makeDecoder();
    // Prompts near the words the corpus mourns with (清明, 思念, 故人, 夜雨), and
    // 龙年, which the model used to answer with 凤岁.
    const testing::PromptCase cases[] = {{PromptMode::Keywords, "思念 故人", 7}, {PromptMode::Upper, "清明时节雨纷纷", 0},
                                         {PromptMode::Keywords, "夜雨 灯火", 7}, {PromptMode::Keywords, "龙年", 7}};
    int checked = 0;
    for (const auto& k : cases) {
        GenerationSpec spec = k.unrankedSpec(8);
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            spec.sampling.seed = seed * 17;
            for (const auto& c : generateCouplets(*model, *decoder, spec)) {
                const std::u32string written = k.mode == PromptMode::Upper ? utf8::decode(c.lower + "|" + c.hengpi)
                                                                          : utf8::decode(c.upper + "|" + c.lower + "|" + c.hengpi);
                CHECK(!ominous(written));
                ++checked;
            }
        }
    }
    CHECK_EQ(checked, 4 * 3 * 8);
}
