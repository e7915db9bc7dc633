// 嵌名: a two-character name, one character per line, at one of the seven
// classical positions (鹤顶 1st ... 凫胫 6th, 雁足 last), by constrained
// decoding on the shipped model; positions that do not fit and names the
// model cannot write are refused with what to do instead.
#include "couplet_constraints.h"
#include "couplet_model.h"
#include "embed_position.h"
#include "generate.h"
#include "tone_table.h"
#include "utf8.h"
#include "vocab.h"

#include <check.h>

#include <algorithm>

using namespace couplet;

namespace {

std::shared_ptr<const CoupletModel> shipped()
{
    static auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    return model;
}

GenerationSpec embedding(const std::string& name, int at, int length)
{
    GenerationSpec spec;
    spec.mode = PromptMode::Acrostic;
    spec.acrostic = name;
    spec.embedAt = at;
    spec.length = length;
    spec.candidates = 2;
    spec.rerank = false;
    spec.sampling.seed = 11;
    return spec;
}

// A line's Han characters: a 九言 line carries a mark (line_shape.h), and
// the name's place counts characters only.
std::u32string hanOnly(const std::string& line)
{
    auto text = utf8::decode(line);
    std::erase_if(text, [](char32_t c) { return isCoupletPunctuation(c); });
    return text;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

bool allows(const std::vector<int>& allowed, int token)
{
    return std::find(allowed.begin(), allowed.end(), token) != allowed.end();
}

} // namespace

COUPLET_TEST(readsPositionsByNumberNameAndPinyin)
{
    CHECK_EQ(parseEmbedPosition("2").value_or(0), 2);
    CHECK_EQ(parseEmbedPosition("２").value_or(0), 2);
    CHECK_EQ(parseEmbedPosition("二").value_or(0), 2);
    CHECK_EQ(parseEmbedPosition("第二字").value_or(0), 2);
    CHECK_EQ(parseEmbedPosition("燕颔").value_or(0), 2);
    CHECK_EQ(parseEmbedPosition(" 燕颔格 ").value_or(0), 2);
    CHECK_EQ(parseEmbedPosition("YanHan").value_or(0), 2);
    CHECK_EQ(parseEmbedPosition("凫胫格").value_or(0), 6);
    CHECK_EQ(parseEmbedPosition("雁足格").value_or(0), kEmbedLast);
    CHECK_EQ(parseEmbedPosition("last").value_or(0), kEmbedLast);
    CHECK_EQ(parseEmbedPosition("末字").value_or(0), kEmbedLast);
    for (const char* bad : {"0", "7", "12", "", "abc", "燕", "格"}) CHECK(!parseEmbedPosition(bad).has_value());
    CHECK_EQ(embedPositionName(3), std::string("鸢肩格 (3rd character)"));
    CHECK_EQ(embedPositionName(kEmbedLast), std::string("雁足格 (last character)"));
}

COUPLET_TEST(aPositionBeyondTheLineNamesThePositionsThatFit)
{
    const std::string knee = embedPositionProblem(5, 5);
    CHECK(contains(knee, "鹤膝格 (5th character) does not fit a line of 5 characters"));
    CHECK(contains(knee, "1 鹤顶格, 2 燕颔格, 3 鸢肩格, 4 蜂腰格, or last 雁足格"));
    CHECK(contains(embedPositionProblem(6, 5), "凫胫格"));
    CHECK(contains(embedPositionProblem(6, 6), "5 鹤膝格, or last"));
    for (int at : {1, 2, 3, 4, 5, 6, kEmbedLast}) {
        CHECK(embedPositionProblem(at, 7).empty());
        CHECK(embedPositionProblem(at, 9).empty());
    }
    CHECK(contains(embedPositionProblem(kEmbedLast, 0), "fixed line length"));
    CHECK(embedPositionProblem(4, 0).empty());
    CHECK_EQ(embedIndex(kEmbedLast, 9), 8);
    CHECK_EQ(embedIndex(3, 9), 2);
}

// Before its place a line never writes the name's character: the 下联
// would have to mirror a repeated 上联 character (叠字) where its own stands.
COUPLET_TEST(constraintsHoldTheNameForItsPlace)
{
    const std::u32string chars = U"德顺春福新年喜安";
    Vocab vocab{std::vector<char32_t>(chars.begin(), chars.end())};
    ToneTable tones;
    TokenClasses classes{vocab, tones};
    PhraseTrie trie;
    ConstraintSpec spec;
    spec.length = 5;
    spec.acrosticUpper = vocab.id(U'德');
    spec.acrosticLower = vocab.id(U'顺');
    spec.embedIndex = 2;
    spec.freeHengpi = true;
    CoupletConstraints c(classes, trie, spec);
    for (char32_t ch : std::u32string_view(U"春福")) {
        CHECK(!allows(c.allowed(), vocab.id(U'德')));
        CHECK(!allows(c.allowed(), vocab.id(U'顺')));
        c.advance(vocab.id(ch));
    }
    CHECK(c.allowed() == std::vector<int>{vocab.id(U'德')});
    c.advance(vocab.id(U'德'));
    CHECK(!allows(c.allowed(), vocab.id(U'德'))); // 德德 would stutter (kReduplicable)
    c.advance(vocab.id(U'新'));
    CHECK(allows(c.allowed(), vocab.id(U'德'))); // later the 上联 may repeat it (then the 下联 repeats 顺)
    c.advance(vocab.id(U'年'));
    c.advance(c.allowed().front()); // the 下联 marker
    for (int j = 0; j < 2; ++j) {
        CHECK(!allows(c.allowed(), vocab.id(U'顺')));
        c.advance(c.allowed().front());
    }
    CHECK(c.allowed() == std::vector<int>{vocab.id(U'顺')});
}

// Every position that fits a line of 5, 7 and 9 characters, on the shipped
// model; the 9-character lines carry a mark, which the position skips.
COUPLET_TEST(everyPositionAtFiveSevenAndNineCharacters)
{
    const auto model = shipped();
    auto decoder = model->makeDecoder();
    int written = 0;
    for (int length : {5, 7, 9}) {
        for (int at : {1, 2, 3, 4, 5, 6, kEmbedLast}) {
            const auto spec = embedding(at % 2 ? "德顺" : "春华", at, length);
            if (!embedPositionProblem(at, length).empty()) {
                CHECK(contains(model->validate(spec), "does not fit a line of " + std::to_string(length)));
                continue;
            }
            CHECK_EQ(model->validate(spec), std::string());
            const auto name = utf8::decode(spec.acrostic);
            const auto index = static_cast<std::size_t>(embedIndex(at, length));
            for (const auto& c : generateCouplets(*model, *decoder, spec)) {
                const auto up = hanOnly(c.upper), down = hanOnly(c.lower);
                CHECK_EQ(up.size(), static_cast<std::size_t>(length));
                CHECK_EQ(down.size(), static_cast<std::size_t>(length));
                CHECK(up[index] == name[0]);
                CHECK(down[index] == name[1]);
                CHECK(up.find(name[0]) == index);
                CHECK(down.find(name[1]) == index);
                CHECK(up.find(name[1]) == std::u32string::npos);
                ++written;
            }
        }
    }
    CHECK_EQ(written, 2 * (5 + 7 + 7));
}

COUPLET_TEST(freeLengthLinesRunPastTheName)
{
    const auto model = shipped();
    auto decoder = model->makeDecoder();
    for (const auto& c : generateCouplets(*model, *decoder, embedding("德顺", 4, 0))) {
        const auto up = hanOnly(c.upper), down = hanOnly(c.lower);
        CHECK(up.size() > 4);
        CHECK(up[3] == U'德' && down[3] == U'顺');
    }
}

COUPLET_TEST(namesTheModelCannotWriteAreRefusedWithAReason)
{
    const auto model = shipped();
    const std::string unknown = model->validate(embedding("德䶮", 2, 7));
    CHECK(contains(unknown, "嵌名 (the name)"));
    CHECK(contains(unknown, "does not know: 䶮"));
    const std::string full = model->validate(embedding("张德顺", 2, 7));
    CHECK(contains(full, "one or two characters"));
    CHECK(contains(full, "德顺"));
    CHECK(contains(model->validate(embedding("德顺", 6, 5)), "positions that fit are 1 鹤顶格"));
    CHECK(contains(model->validate(embedding("德顺", kEmbedLast, 0)), "fixed line length"));
    auto required = embedding("德顺", 3, 7);
    required.keywords = "生意";
    required.keywordsMustAppear = true;
    CHECK(contains(model->validate(required), "cannot be combined"));
    required.embedAt = 1;
    CHECK_EQ(model->validate(required), std::string());
}

// 雁足格 ends the lines on the name: with the tone rule (上联 仄, 下联 平) a
// name against it is refused rather than changed; without it, it is written.
COUPLET_TEST(nameAtTheLastPlaceMeetsTheToneRule)
{
    const auto model = shipped();
    auto spec = embedding("德顺", kEmbedLast, 7); // 德 平, 顺 仄: both against the rule
    spec.tonePattern = true;
    CHECK(contains(model->validate(spec), "德 is 平"));
    spec.acrostic = "瑞顺"; // 瑞 仄, 顺 仄
    CHECK(contains(model->validate(spec), "顺 is 仄"));
    spec.acrostic = "瑞祥"; // 瑞 仄, 祥 平
    CHECK_EQ(model->validate(spec), std::string());
    auto decoder = model->makeDecoder();
    for (const auto& c : generateCouplets(*model, *decoder, spec)) {
        CHECK(c.upper.ends_with("瑞"));
        CHECK(c.lower.ends_with("祥"));
    }
    spec.acrostic = "德顺";
    spec.tonePattern = false;
    CHECK_EQ(model->validate(spec), std::string());
}
