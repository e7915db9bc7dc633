// A length counts Han characters (LineShape): a 九言 request gets nine, with
// one mark after the 4th or 5th when it has one, never 4+4 with a comma.
#include "couplet_model.h"
#include "generate.h"
#include "line_marks.h"
#include "line_shape.h"
#include "prompt_case.h"
#include "utf8.h"
#include "vocab.h"

#include <check.h>

using namespace couplet;

namespace {

// Han characters `length`; marks only at a natural break; the 下联 the same shape.
void checkLine(const std::string& text, int length)
{
    const auto line = utf8::decode(text);
    CHECK_EQ(countCharacters(line), length);
    const LineMarks m = lineMarks(line, length);
    CHECK_EQ(m.misplaced, 0);
    CHECK(m.marks <= 1);
}

} // namespace

COUPLET_TEST(shapesOfTheCommonLengths)
{
    CHECK(!lineShapeFor(5).marked());
    CHECK(!lineShapeFor(7).marked());
    CHECK_EQ(lineShapeFor(7).tokens(), 7);
    const LineShape nine = lineShapeFor(9);
    CHECK(nine.breakMin == 4 && nine.breakMax == 5 && nine.tokens() == 10);
    const LineShape eleven = lineShapeFor(11);
    CHECK(eleven.breakMin == 4 && eleven.breakMax == 7 && eleven.tokens() == 12);
    CHECK_EQ(countCharacters(U"春风送暖，万户喜迎新"), 9);
}

COUPLET_TEST(shippedModelWritesTheCharactersAskedFor)
{
    const auto model = CoupletModel::load(CoupletModel::defaultModelDir(), DeviceOptions{"cpu", false, 2});
    auto decoder = model->makeDecoder();
    int checked = 0, marked = 0;
    for (int length : {5, 7, 9, 11}) {
        const testing::PromptCase cases[] = {{PromptMode::Keywords, "生意 兴隆", length},
                                             {PromptMode::Keywords, "春", length},
                                             {PromptMode::Acrostic, "吉祥", length}};
        for (const auto& prompt : cases) {
            GenerationSpec spec = prompt.unrankedSpec(6);
            spec.sampling.seed = 11;
            for (const auto& c : generateCouplets(*model, *decoder, spec)) {
                checkLine(c.upper, length);
                checkLine(c.lower, length);
                marked += c.upper.find("，") != std::string::npos;
                ++checked;
            }
        }
    }
    CHECK_EQ(checked, 4 * 3 * 6);
    CHECK_EQ(marked, 2 * 3 * 6); // 9 and 11 break once, as the corpus writes them; 5 and 7 never
    // A given 上联 of nine characters with its mark is answered in kind.
    GenerationSpec upper = testing::PromptCase{PromptMode::Upper, "春风送暖，万户喜迎新", 0}.unrankedSpec(4);
    upper.sampling.seed = 3;
    for (const auto& c : generateCouplets(*model, *decoder, upper)) checkLine(c.lower, 9);
}
