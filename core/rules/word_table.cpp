#include "word_table.h"

#include "utf8.h"
#include "vocab.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace couplet {
namespace {

// A character the table lacks counts as seen half a time (below jieba's floor of 1).
const double kUnknownLogFrequency = std::log(0.5);

} // namespace

WordTable WordTable::load(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    struct Row {
        std::u32string word;
        double frequency;
        char pos;
    };
    std::vector<Row> rows;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        std::istringstream fields(line);
        std::string word, frequency, pos;
        std::getline(fields, word, '\t');
        std::getline(fields, frequency, '\t');
        std::getline(fields, pos, '\t');
        try {
            auto text = utf8::decode(word);
            if (text.empty() || text.size() > static_cast<std::size_t>(kMaxWord)) throw std::invalid_argument("not 1 to 4 characters");
            const double f = std::stod(frequency);
            if (!(f > 0)) throw std::invalid_argument("frequency must be positive");
            rows.push_back({std::move(text), f, pos.empty() ? 'x' : pos[0]});
        } catch (const std::exception& e) {
            throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo) + ": " + e.what());
        }
    }
    WordTable table;
    table.m_words.reserve(rows.size());
    for (auto& r : rows) table.add(std::move(r.word), r.frequency, r.pos);
    return table;
}

void WordTable::add(std::u32string word, double frequency, char pos)
{
    m_total += frequency;
    m_words[std::move(word)] = {static_cast<float>(std::log(frequency)), pos};
}

const WordTable::Word* WordTable::find(std::u32string_view word) const
{
    const auto it = m_words.find(std::u32string(word));
    return it == m_words.end() ? nullptr : &it->second;
}

std::vector<int> WordTable::segment(std::u32string_view clause) const
{
    // best[i]: log-probability of the best split of clause[i..] (each word
    // log(frequency / total), so that a split into more words costs more).
    const double logTotal = std::log(std::max(m_total, 1.0));
    const std::size_t n = clause.size();
    std::vector<double> best(n + 1, 0.0);
    std::vector<int> step(n + 1, 1);
    for (std::size_t i = n; i-- > 0;) {
        best[i] = -1e300;
        for (std::size_t len = 1; len <= static_cast<std::size_t>(kMaxWord) && i + len <= n; ++len) {
            const Word* w = find(clause.substr(i, len));
            if (w == nullptr && len > 1) continue;
            const double lp = (w != nullptr ? w->logProb : kUnknownLogFrequency) - logTotal + best[i + len];
            if (lp > best[i]) {
                best[i] = lp;
                step[i] = static_cast<int>(len);
            }
        }
    }
    std::vector<int> out;
    for (std::size_t i = 0; i < n; i += static_cast<std::size_t>(step[i])) out.push_back(step[i]);
    return out;
}

std::vector<std::u32string_view> clausesOf(std::u32string_view line)
{
    std::vector<std::u32string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= line.size(); ++i) {
        if (i < line.size() && !isCoupletPunctuation(line[i])) continue;
        if (i > start) out.push_back(line.substr(start, i - start));
        start = i + 1;
    }
    return out;
}

} // namespace couplet
