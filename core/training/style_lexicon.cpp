#include "style_lexicon.h"

#include "utf8.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace couplet {

StyleLexicon StyleLexicon::load(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    std::vector<std::pair<std::u32string, int>> words;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream fields(line);
        std::string word, extra;
        int weight = 0;
        if (!(fields >> word)) continue;
        const auto where = path.string() + ": line " + std::to_string(lineNo) + ": ";
        if (!(fields >> weight) || (fields >> extra) || weight < 1 || weight > kFestiveWeight)
            throw std::runtime_error(where + "expected \"word weight\" with a weight of 1 or 2, found \"" + line + "\"");
        std::u32string chars;
        try {
            chars = utf8::decode(word);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(where + e.what());
        }
        words.emplace_back(std::move(chars), weight);
    }
    if (words.empty()) throw std::runtime_error(path.string() + ": no words");
    return StyleLexicon(std::move(words));
}

int StyleLexicon::weight(const std::u32string& text) const
{
    int sum = 0;
    for (const auto& [word, w] : m_words)
        if (text.find(word) != std::u32string::npos) sum += w;
    return sum;
}

} // namespace couplet
