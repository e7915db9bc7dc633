// Keyword counterparts: where the 上联 holds a four-character keyword run
// (五谷丰登), some candidates of a reranked pool write a blessing of four
// opposite it in the 下联 (六畜兴旺) instead of a made-up answer (千年似海).
#include "couplet_constraints.h"
#include "couplet_model.h"
#include "generate.h"
#include "hengpi_list.h"
#include "tone_table.h"
#include "utf8.h"
#include "vocab.h"
#include "zodiac.h"

#include <check.h>

#include <algorithm>
#include <set>

using namespace couplet;

namespace {

struct Rig {
    Vocab vocab{std::vector<char32_t>{U'五', U'谷', U'丰', U'登', U'千', U'家', U'乐', U'六', U'畜', U'兴', U'旺',
                                      U'万', U'户', U'欢', U'春', U'满', U'院', U'福', U'临', U'门'}};
    ToneTable tones;
    TokenClasses classes{vocab, tones};
    PhraseTrie trie;
    std::vector<int> encode(std::u32string_view text) const { return vocab.encode(utf8::encode(std::u32string(text))); }
    ConstraintSpec spec() const
    {
        ConstraintSpec s;
        s.length = 7;
        s.freeHengpi = true;
        s.counterpartRun = encode(U"五谷丰登");
        s.counterpart = encode(U"六畜兴旺");
        return s;
    }
    // Writes the 上联, then the 下联 as far as the allowed tokens are one each;
    // returns those forced characters, position by position (0 = not forced).
    std::u32string forcedLower(const ConstraintSpec& s, std::u32string_view upper) const
    {
        CoupletConstraints c(classes, trie, s);
        for (char32_t ch : upper) {
            const auto& allowed = c.allowed();
            CHECK(std::find(allowed.begin(), allowed.end(), vocab.id(ch)) != allowed.end());
            c.advance(vocab.id(ch));
        }
        c.advance(tok::kLower);
        std::u32string out;
        for (std::size_t i = 0; i < upper.size(); ++i) {
            const auto allowed = c.allowed();
            CHECK(!allowed.empty());
            out.push_back(allowed.size() == 1 ? vocab.character(allowed[0]) : U'0');
            // Go on with the forced character, else the first allowed one that is not the phrase's.
            const auto free = std::find_if(allowed.begin(), allowed.end(), [&](int t) {
                return std::find(s.counterpart.begin(), s.counterpart.end(), t) == s.counterpart.end();
            });
            c.advance(allowed.size() == 1 || free == allowed.end() ? allowed[0] : *free);
        }
        return out;
    }
};

} // namespace

COUPLET_TEST(theBlessingIsWrittenOppositeTheKeywordRunWhereverTheUpperLineHoldsIt)
{
    const Rig r;
    CHECK(r.forcedLower(r.spec(), U"五谷丰登千家乐") == std::u32string(U"六畜兴旺000"));
    CHECK(r.forcedLower(r.spec(), U"千家五谷丰登乐") == std::u32string(U"00六畜兴旺0"));
}

COUPLET_TEST(noBlessingWhereTheRunIsMissingOrThePhraseWouldRepeatAnUpperCharacter)
{
    const Rig r;
    CHECK(r.forcedLower(r.spec(), U"五谷千家丰登乐") == std::u32string(U"0000000")); // the run torn
    CHECK(r.forcedLower(r.spec(), U"五谷丰登兴家乐") == std::u32string(U"0000000")); // 兴 is the 上联's
    ConstraintSpec none = r.spec();
    none.counterpart.clear();
    CHECK(r.forcedLower(none, U"五谷丰登千家乐") == std::u32string(U"0000000"));
}

// The shipped model: a reranked pool for 五谷 丰登 holds candidates with a
// blessing of hengpi.txt opposite the run, more than one, none naming a year animal.
COUPLET_TEST(aReRankedPoolOfTheShippedModelTriesBlessingsOppositeTheRun)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    auto decoder = model->makeDecoder();
    const auto phrases = HengpiList::load(CoupletModel::defaultModelDir() / "hengpi.txt");
    std::set<std::u32string> blessings;
    for (const auto& p : phrases.phrases()) blessings.insert(p.text);
    GenerationSpec spec;
    spec.keywords = "五谷 丰登";
    spec.length = 7;
    spec.sampling.seed = 11;
    spec.candidates = 16;
    int holding = 0, answered = 0;
    std::set<std::u32string> answers;
    for (const auto& c : generateCouplets(*model, *decoder, spec)) {
        const auto up = utf8::decode(c.upper), down = utf8::decode(c.lower);
        const auto at = up.find(U"五谷丰登");
        if (at == std::u32string::npos) continue;
        ++holding;
        const auto opposite = down.substr(at, 4);
        if (blessings.count(opposite) == 0) continue;
        ++answered;
        answers.insert(opposite);
    }
    CHECK(holding >= 4);
    CHECK(answered >= 2);
    CHECK(answers.size() >= 2); // more than one blessing tried
    for (const auto& a : answers) CHECK(firstZodiac(a) < 0);
}
