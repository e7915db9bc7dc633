#include "theme_lexicon.h"

#include "occasion.h"
#include "utf8.h"
#include "zodiac.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace couplet {
namespace {

// The judges' "verse, not festive" (issue 35): autumn, dusk, grief, leanness,
// seclusion, loneliness, cold, decay, falling, tears, parting, idleness, the
// wilds, night and the moon. On the 480 judged outputs of sessions 17-18, 28
// hold one the prompt did not ask for, and none of them was printable.
constexpr std::u32string_view kMelancholy = U"秋暮愁瘦幽孤寒残落泪别冷闲野隐寂寞凄断病晚独夜月";
// Festive words that hold one of them.
constexpr std::u32string_view kFestiveExceptions[] = {U"千秋", U"春秋", U"秋实", U"金秋", U"岁月",
                                                      U"日月", U"月圆", U"年月", U"月异", U"落成"};

const std::vector<std::u32string> kNoWords;

} // namespace

ThemeLexicon ThemeLexicon::load(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    ThemeLexicon lexicon;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        std::istringstream fields(line);
        std::string theme, word;
        std::getline(fields, theme, '\t');
        std::getline(fields, word, '\t');
        try {
            auto text = utf8::decode(word);
            if (theme.empty() || text.empty()) throw std::invalid_argument("needs a theme and a word");
            lexicon.add(theme, std::move(text));
        } catch (const std::exception& e) {
            throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo) + ": " + e.what());
        }
    }
    return lexicon;
}

void ThemeLexicon::add(const std::string& theme, std::u32string word)
{
    m_words[theme].push_back(std::move(word));
}

std::vector<std::string> ThemeLexicon::themeNames() const
{
    std::vector<std::string> out;
    for (const auto& [name, words] : m_words) out.push_back(name);
    return out;
}

const std::vector<std::u32string>& ThemeLexicon::words(const std::string& theme) const
{
    const auto it = m_words.find(theme);
    return it == m_words.end() ? kNoWords : it->second;
}

std::vector<std::string> ThemeLexicon::themesOf(std::u32string_view prompt, int animal)
{
    std::vector<std::string> out;
    const unsigned occasions = occasionsOf(prompt);
    for (unsigned bit = 1; bit < kOccasionShared; bit <<= 1)
        if (occasions & bit) out.emplace_back(occasionName(bit));
    if (occasions == 0) out.emplace_back("spring");
    if (animal >= 0 && animal < static_cast<int>(kZodiacAnimals.size()))
        out.push_back("animal-" + utf8::encode(std::u32string(1, kZodiacAnimals[static_cast<std::size_t>(animal)])));
    return out;
}

int ThemeLexicon::themeWords(const std::vector<std::string>& themes, std::u32string_view text, std::u32string_view prompt) const
{
    std::set<std::u32string_view> found;
    for (const auto& theme : themes)
        for (const auto& w : words(theme))
            if (w.size() >= 2 && text.find(w) != std::u32string_view::npos && prompt.find(w) == std::u32string_view::npos)
                found.insert(w);
    return static_cast<int>(found.size());
}

int melancholyCharacters(std::u32string_view text, std::u32string_view prompt)
{
    std::u32string rest(text);
    for (std::u32string_view w : kFestiveExceptions)
        for (auto at = rest.find(w); at != std::u32string::npos; at = rest.find(w, at)) rest.replace(at, w.size(), w.size(), U' ');
    return static_cast<int>(std::count_if(rest.begin(), rest.end(), [&](char32_t c) {
        return kMelancholy.find(c) != std::u32string_view::npos && prompt.find(c) == std::u32string_view::npos;
    }));
}

} // namespace couplet
