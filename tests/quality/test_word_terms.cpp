// Word-level reranking terms: made-up words (loose characters), keywords torn
// across words, 对仗 word by word, the prompt's theme and verse melancholy.
#include "couplet_model.h"
#include "couplet_scorer.h"
#include "keyword_plan.h"
#include "source_dir.h"
#include "theme_lexicon.h"
#include "tone_table.h"
#include "utf8.h"
#include "vocab.h"
#include "word_table.h"
#include "word_terms.h"

#include <check.h>

#include <cctype>
#include <fstream>
#include <iostream>

using namespace couplet;

namespace {

WordTable smallTable()
{
    WordTable t;
    for (const auto& [w, f, pos] : std::initializer_list<std::tuple<std::u32string, double, char>>{
             {U"春风", 500, 'n'}, {U"送暖", 50, 'v'}, {U"千家", 80, 'm'}, {U"乐", 900, 'a'}, {U"旭日", 300, 'n'},
             {U"迎祥", 40, 'v'}, {U"万户", 90, 'm'}, {U"欢", 700, 'a'}, {U"民生", 400, 'n'}, {U"生意", 600, 'n'},
             {U"兴隆", 300, 'a'}, {U"意", 800, 'n'}, {U"民", 100, 'n'}, {U"五", 1000, 'm'}, {U"景", 300, 'n'},
             {U"福", 900, 'n'}, {U"光", 900, 'n'}, {U"风景", 800, 'n'}}) {
        t.add(w, f, pos);
    }
    return t;
}

std::vector<int> lengths(std::initializer_list<int> l)
{
    return l;
}

const WordTable& shippedWords()
{
    static const WordTable table = WordTable::load(CoupletModel::defaultModelDir() / "words.tsv");
    return table;
}

} // namespace

COUPLET_TEST(segmentsByTheMostProbableWords)
{
    const WordTable t = smallTable();
    CHECK(t.segment(U"春风送暖千家乐") == lengths({2, 2, 2, 1}));
    CHECK(t.segment(U"民生意兴隆") == lengths({2, 1, 2})); // 民生 / 意 / 兴隆: 生意 is torn
    CHECK(t.segment(U"五景") == lengths({1, 1}));
    CHECK(clausesOf(U"春风送暖，千家乐").size() == 2);
}

COUPLET_TEST(aTornKeywordAndAnUnknownWordArePenalised)
{
    const WordTable t = smallTable();
    const WordTerms good = wordTermsOf(t, U"春风送暖千家乐", U"旭日迎祥万户欢", {U"春风"});
    CHECK_EQ(good.looseCharacters, 0);
    CHECK_EQ(good.tornKeywords, 0);
    CHECK_NEAR(good.matchedWords, 1.0, 1e-9); // 春风/旭日 n, 送暖/迎祥 v, 千家/万户 m
    const WordTerms torn = wordTermsOf(t, U"民生意兴隆", U"春风送暖乐", {U"生意"});
    CHECK_EQ(torn.tornKeywords, 1);
    const WordTerms madeUp = wordTermsOf(t, U"五景福光乐", U"春风送暖欢", {});
    CHECK_EQ(madeUp.looseCharacters, 5); // 五 / 景 / 福 / 光 / 乐 make no word together
    CHECK(wordTermsOf(t, U"春风送暖千家乐", U"五景福光乐万户", {}).matchedWords < 0.5);

    // Through the scorer: the torn and the made-up candidates rank below the sound one.
    const Vocab vocab;
    const ToneTable tones;
    PromptLexicons lex;
    lex.words = &t;
    lex.prompt = U"生意";
    const CoupletScorer scorer(vocab, tones, nullptr, {}, lex);
    std::vector<Couplet> cands(3);
    cands[0].upper = "民生意兴隆", cands[0].lower = "春风送暖乐";
    cands[1].upper = "生意兴隆乐", cands[1].lower = "春风送暖欢";
    cands[2].upper = "五景福光乐", cands[2].lower = "春风送暖欢";
    scorer.rerank(cands, {U"生意"});
    CHECK_EQ(cands[0].upper, std::string("生意兴隆乐"));
    for (const auto& c : cands) {
        CHECK_NEAR(c.score, c.parts.total(), 1e-12);
        if (c.upper == "民生意兴隆") CHECK(c.parts.tornKeywords < 0);
        if (c.upper == "五景福光乐") CHECK(c.parts.looseWords < 0);
    }
}

COUPLET_TEST(melancholyIsCountedUnlessAskedForOrFestive)
{
    CHECK_EQ(melancholyCharacters(U"秋水暮云平", U"平安"), 2);
    CHECK_EQ(melancholyCharacters(U"千秋伟业", U"伟业"), 0);   // 千秋 is festive
    CHECK_EQ(melancholyCharacters(U"岁月如歌花好月圆", U""), 0);
    CHECK_EQ(melancholyCharacters(U"秋色满园", U"秋"), 0);     // the prompt asked for autumn
}

COUPLET_TEST(themesComeFromThePrompt)
{
    CHECK(ThemeLexicon::themesOf(U"开业 大吉", 7) == (std::vector<std::string>{"business", "animal-羊"}));
    CHECK(ThemeLexicon::themesOf(U"五福", -1) == std::vector<std::string>{"spring"});
    ThemeLexicon lex;
    lex.add("business", U"财源");
    lex.add("business", U"顾客");
    lex.add("spring", U"春风");
    CHECK_EQ(lex.themeWords({"business"}, U"财源广进迎顾客", U"开业"), 2);
    CHECK_EQ(lex.themeWords({"business"}, U"财源广进迎顾客", U"财源"), 1); // the prompt's own word is the keyword term's
    CHECK_EQ(lex.themeWords({"spring"}, U"财源广进迎顾客", U"开业"), 0);
}

COUPLET_TEST(shippedWordTableReadsTheJudgesExamples)
{
    const WordTable& t = shippedWords();
    CHECK(t.size() > 100000);
    CHECK(t.find(U"春风") != nullptr && t.find(U"春风")->pos == 'n');
    // 万家和气 tears 家和 (万家 / 和 / 气); 家和万事兴 keeps it, and 生意兴隆 holds 生意 whole.
    CHECK_EQ(wordTermsOf(t, U"万家和气满门庭", U"四海春风入画图", {U"家和"}).tornKeywords, 1);
    CHECK_EQ(wordTermsOf(t, U"家和万事兴", U"国泰百业昌", {U"家和"}).tornKeywords, 0);
    CHECK_EQ(wordTermsOf(t, U"生意兴隆通四海", U"财源茂盛达三江", {U"生意"}).tornKeywords, 0);
    // A made-up word has more loose characters than a sound line of the same length.
    CHECK(wordTermsOf(t, U"五景福光来", U"三春瑞气临", {}).looseCharacters
          > wordTermsOf(t, U"春风送暖来", U"旭日迎祥到", {}).looseCharacters);
    const auto themes = ThemeLexicon::load(CoupletModel::defaultModelDir() / "themes.tsv");
    for (const char* theme : {"spring", "business", "health", "school", "wedding", "moving", "farming", "technology"})
        CHECK(themes.words(theme).size() >= 5);
}

namespace {

struct Verdict {
    std::string mode, prompt;
    std::u32string upper, lower;
    bool printable = false;
};

std::vector<std::string> cellsOf(const std::string& row)
{
    std::vector<std::string> cells;
    std::size_t at = row.find('|');
    while (at != std::string::npos) {
        const std::size_t next = row.find('|', at + 1);
        if (next == std::string::npos) break;
        std::string cell = row.substr(at + 1, next - at - 1);
        cell.erase(0, cell.find_first_not_of(' '));
        cell.erase(cell.find_last_not_of(' ') + 1);
        cells.push_back(cell);
        at = next;
    }
    return cells;
}

// Every "上联 / 下联 / 横批 | ✓ or ✗" pair of cells of the judged tables.
std::vector<Verdict> judgedVerdicts()
{
    std::vector<Verdict> out;
    for (const char* name : {"session17.md", "session18.md"}) {
        std::ifstream in(std::filesystem::path(COUPLET_SOURCE_DIR) / "docs" / "judged" / name);
        CHECK(in.good());
        std::string row;
        while (std::getline(in, row)) {
            const auto cells = cellsOf(row);
            if (cells.size() < 5 || cells[0].empty() || !std::isdigit(static_cast<unsigned char>(cells[0][0]))) continue;
            for (std::size_t i = 3; i + 1 < cells.size(); ++i) {
                const auto first = cells[i].find(" / "), second = cells[i].find(" / ", first + 3);
                if (second == std::string::npos || (cells[i + 1] != "✓" && cells[i + 1] != "✗")) continue;
                out.push_back({cells[1], cells[2], utf8::decode(cells[i].substr(0, first)),
                               utf8::decode(cells[i].substr(first + 3, second - first - 3)), cells[i + 1] == "✓"});
            }
        }
    }
    return out;
}

// Probability that a printable output scores above one that is not (ties half).
double aucOf(const std::vector<double>& score, const std::vector<Verdict>& verdicts)
{
    double wins = 0, pairs = 0;
    for (std::size_t i = 0; i < verdicts.size(); ++i)
        for (std::size_t j = 0; j < verdicts.size(); ++j)
            if (verdicts[i].printable && !verdicts[j].printable) {
                wins += score[i] > score[j] ? 1.0 : score[i] == score[j] ? 0.5 : 0.0;
                pairs += 1;
            }
    return wins / pairs;
}

} // namespace

// Each term separates the judged printable outputs of sessions 17-18 from the
// rest (AUC above 0.5); the figures are the model card's.
COUPLET_TEST(eachTermSeparatesTheJudgedVerdicts)
{
    const auto verdicts = judgedVerdicts();
    CHECK_EQ(verdicts.size(), std::size_t(480));
    const WordTable& t = shippedWords();
    const auto themes = ThemeLexicon::load(CoupletModel::defaultModelDir() / "themes.tsv");
    std::vector<double> loose, torn, matched, theme, melancholy;
    for (const auto& v : verdicts) {
        const bool given = v.mode == "upper";
        const auto prompt = utf8::decode(v.prompt);
        const auto keywords = given || v.mode == "acrostic" ? std::vector<std::u32string>{} : splitKeywords(v.prompt);
        const WordTerms w = wordTermsOf(t, v.upper, v.lower, keywords);
        loose.push_back(-w.looseCharacters);
        torn.push_back(-w.tornKeywords);
        matched.push_back(w.matchedWords);
        const std::u32string written = given ? v.lower : v.upper + U"\n" + v.lower;
        theme.push_back(std::min(kMaxThemeWords, themes.themeWords(ThemeLexicon::themesOf(prompt, 7), written, prompt)));
        melancholy.push_back(-melancholyCharacters(written, prompt));
    }
    const std::pair<const char*, const std::vector<double>*> terms[] = {
        {"loose characters", &loose}, {"torn keywords", &torn}, {"word 对仗", &matched}, {"theme", &theme}, {"melancholy", &melancholy}};
    for (const auto& [name, score] : terms) {
        const double auc = aucOf(*score, verdicts);
        std::cout << name << ": AUC " << auc << " on " << verdicts.size() << " judged outputs\n";
        CHECK(auc > 0.5);
    }
}
