#pragma once

#include "keyword_plan.h"
#include "line_shape.h"
#include "phrase_trie.h"
#include "token_mask.h"

#include <vector>

namespace couplet {

class Vocab;
class ToneTable;

// Token classes the constraints are made of, computed once per model.
struct TokenClasses {
    std::vector<int> han;         // Han characters
    std::vector<int> punctuation; // couplet punctuation
    std::vector<char> level;      // [vocab] 1 = 平
    std::vector<char> oblique;    // [vocab] 1 = 仄
    std::vector<signed char> zodiac; // [vocab] year animal 0-11 (鼠 ... 猪), -1 = none
    std::vector<char> omen;          // [vocab] 1 = a character of mourning (omens.h)
    std::vector<std::pair<int, int>> omenWords; // (first, second) of the omen and false-year words, sorted
    std::vector<char> yearMirror;             // [vocab] 1 = one of kYearMirrors (omens.h)
    std::vector<char> yearWord;               // [vocab] 1 = 年 or 岁
    std::vector<char> reduplicable;           // [vocab] 1 = may be doubled (kReduplicable, omens.h)
    std::vector<std::pair<int, int>> offSeason; // (上联, 下联 not facing it) of kOffSeasonMirrors
    TokenClasses(const Vocab& vocab, const ToneTable& tones);
    // The 上联's characters for a couplet whose year animal is `animal`
    // (0-11; -1 = none named yet, or mixed years): Han minus the characters
    // of mourning and minus the other animals, with the punctuation after
    // them when `marks`. Made once per model, in Han order, so that a step
    // neither rebuilds nor copies 7,000 tokens.
    const TokenPool& upperPool(int animal, bool marks) const;

private:
    std::vector<TokenPool> m_upperPools; // [(animal + 1) * 2 + marks]
};

struct ConstraintSpec {
    int length = 0;                  // Han characters per line, marks not counted (LineShape); 0 = free
    std::vector<int> upper;          // a given 上联: generation starts with the 下联
    int acrosticUpper = -1;          // 嵌名: forced token of 上联 / 下联 at embedIndex; -1 = none
    int acrosticLower = -1;
    int embedIndex = 0;              // 0-based; 0 = 藏头. Neither line has its name character before it.
    std::vector<int> hengpi;         // a fixed 横批 (four tokens), else empty
    bool tonePattern = false;        // 上联 ends on 仄, 下联 on 平
    bool freeHengpi = false;         // any four Han characters instead of the phrase list
    // Keywords (token runs) the 上联 must contain, forced in when the
    // positions left would no longer hold them; empty = no requirement.
    std::vector<std::vector<int>> requiredKeywords;
    // One year animal per couplet: a given 上联's first, else the prompt's
    // (yearAnimal), else the first the 上联 written names; no other in 上联,
    // 下联 or 横批, and no animal 横批 for a couplet without one. mixedZodiac
    // lifts it (辞旧迎新: 金蛇辞旧岁, 骏马迎新春).
    int yearAnimal = -1;             // named by keywords, 藏头 or a fixed 横批; 0-11, -1 = none
    bool mixedZodiac = false;
    // The 横批's year animal, whatever the lines name (no 马年大吉 for 2027
    // over a 上联 that sees the horse off): the prompt's, else the year's; -1 = none given.
    int hengpiAnimal = -1;
    unsigned occasions = 0;          // the prompt's occasions (occasion.h): their 横批 first, others' never
    // What the prompt is about (its keywords, required or not, and a 嵌名
    // name with each of its characters): a 横批 that holds one is preferred
    // (团圆 -> 阖家团圆, 金玉 -> 金玉满堂, 德顺 -> 德泽流芳), and the 上联 does
    // not double a keyword's last character (团圆圆).
    std::vector<std::vector<int>> themes;
    // Keyword counterparts: a four-character keyword run (a keyword, or two
    // of two characters in the order given: 生意 兴隆) and a blessing of four
    // (hengpi.txt) written opposite it in the 下联 where the 上联 holds the
    // run (五谷丰登 / 六畜兴旺), instead of a made-up answer (万事如意 /
    // 千年似海). Not where the phrase would repeat a 上联 character. Empty = none.
    std::vector<int> counterpartRun;
    std::vector<int> counterpart;
};

enum class Segment { Upper, Lower, Hengpi, Done };

// The couplet rules, applied by masking: after each token the set of tokens
// that may come next. Lines have the same length; 下联 punctuation mirrors
// 上联's; no special token inside a line; no 上联 character in 下联 except
// where 上联 repeats a character (then 下联 repeats its own, 叠字 mirrored);
// 横批 is four Han characters, from the phrase list unless free or fixed;
// required keywords appear in the 上联; one year animal (ConstraintSpec); no
// words of mourning (omens.h) in what the model writes.
class CoupletConstraints {
public:
    CoupletConstraints(const TokenClasses& classes, const PhraseTrie& trie, ConstraintSpec spec);

    // Tokens allowed next; never empty until done().
    const std::vector<int>& allowed();
    // The same set as a mask, where the last allowed() returned one of the
    // pools (most steps); null where it made a list of its own.
    const TokenMask* allowedMask() const { return m_viewMask; }
    void advance(int token);

    Segment segment() const { return m_segment; }
    const ConstraintSpec& spec() const { return m_spec; }
    bool done() const { return m_segment == Segment::Done; }
    const std::vector<int>& upper() const { return m_upper; }
    const std::vector<int>& lower() const { return m_lower; }
    const std::vector<int>& hengpi() const { return m_hengpi; }
    // The couplet's year animal (0-11) so far, -1 = none.
    int yearAnimal() const { return m_animal; }
    // Tokens of the line being written (for the repetition penalty).
    const std::vector<int>& currentLine() const;
    // Tokens the 上联 will have, its mark included (LineShape::tokens); 0 = free length.
    int upperTokens() const { return m_shape.tokens(); }

private:
    void allowUpper();
    // Whether a mark may, or must, follow the 上联's `written` characters
    // (`marked`: it has one already) at this length.
    bool markAllowed(int written, bool marked, bool prevIsMark, bool lastPosition) const;
    bool markDue(int written, bool marked, bool prevIsMark) const;
    // Whether writing the 上联's last character again would stutter: it may
    // not be doubled (kReduplicable), or it ends a keyword (团圆圆). Never
    // after a mark (`prevIsMark`: the 上联's last token is one).
    bool wouldStutter(bool prevIsMark) const;
    void allowLower();
    void allowHengpi();
    void only(int token);
    // Keeps tokens with flag[token] set, unless none would remain.
    void preferFlagged(const std::vector<char>& flag);
    // Forces a keyword character when the 上联 has just room for the missing ones.
    bool forceKeyword(int position);
    // The first year animal the 上联 names becomes the couplet's.
    void noteAnimal(int token);
    // Whether `token` is a year animal other than the couplet's (false when mixedZodiac).
    bool isOtherAnimal(int token) const;
    // Removes from m_allowed, in one pass, other year animals (unless
    // `anyAnimal`: the 上联 has named none yet) and characters of mourning,
    // then dropOmenWords(line).
    void dropBanned(const std::vector<int>& line, bool anyAnimal);
    // Removes the second character of an omen word right after its first in
    // `line`. The user's own (keywords, 藏头) stay, here and in isOmen.
    void dropOmenWords(const std::vector<int>& line);
    // Whether `line` ends in the first character of an omen word.
    bool endsInOmenWordStart(const std::vector<int>& line) const;
    bool isOmen(int token) const;
    // The 上联's pool for this couplet: the model's (TokenClasses::upperPool),
    // or, when the user's own tokens change it (a 下联 藏头, a keyword of
    // mourning), one of its own.
    const TokenPool& upperPool(bool marks);

    const TokenClasses& m_classes;
    const PhraseTrie& m_trie;
    ConstraintSpec m_spec;
    LineShape m_shape;
    Segment m_segment;
    std::vector<int> m_upper, m_lower, m_hengpi;
    std::vector<char> m_hengpiOk; // [phrase] suits this couplet (suitableHengpi); made at the 横批's first step
    KeywordPlan m_keywords;
    int m_upperMarks = 0;     // marks in the 上联 so far
    int m_keywordReserve = 0; // positions at the 上联's end kept free of forced keywords
    int m_trieNode = 0;
    int m_animal = -1; // the couplet's year animal so far
    std::vector<int> m_allowed;
    // What allowed() returns: m_allowed, or a pool as it stands when the
    // step changes nothing in it.
    const std::vector<int>* m_view = &m_allowed;
    const TokenMask* m_viewMask = nullptr;
    bool m_ownUpperPool = false;        // the user's tokens change the 上联's pool
    int m_ownUpperPoolAnimal = -2;      // the animal it was made for; -2 = not made
    TokenPool m_ownUpperPoolPlain, m_ownUpperPoolMarks;
    std::vector<int> m_ownTokens;       // the user's keyword and 藏头 tokens, sorted: never dropped as omens
    TokenPool m_lowerPool;              // Han minus the 上联 and the 下联 so far
    std::size_t m_lowerPoolUsed = 0;    // 下联 characters taken out of it
    bool m_lowerPoolReady = false;
    int m_counterpartAt = -2;           // 上联 token where counterpartRun starts; -1 = nowhere; -2 = not looked
};

} // namespace couplet
