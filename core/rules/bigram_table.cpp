#include "bigram_table.h"

#include "table_header.h"
#include "utf8.h"
#include "vocab.h"
#include "word_table.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

namespace couplet {
namespace {

std::uint64_t keyOf(char32_t a, char32_t b) { return (std::uint64_t(a) << 32) | b; }

float scoreOf(std::uint32_t count)
{
    if (count == 0) return 0;
    return std::min(1.0f, static_cast<float>(std::log1p(double(count)) / std::log1p(double(BigramTable::kFullCount))));
}

} // namespace

void BigramTable::addLine(const std::u32string& line)
{
    ++m_lines;
    for (std::size_t i = 1; i < line.size(); ++i)
        if (utf8::isHan(line[i - 1]) && utf8::isHan(line[i])) ++m_counts[keyOf(line[i - 1], line[i])];
}

void BigramTable::prune(std::uint32_t minCount)
{
    std::erase_if(m_counts, [&](const auto& kv) { return kv.second < minCount; });
}

void BigramTable::save(const std::filesystem::path& path) const
{
    std::vector<std::pair<std::uint64_t, std::uint32_t>> sorted(m_counts.begin(), m_counts.end());
    // By count, then by pair: the same table writes the same file.
    std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
        return x.second != y.second ? x.second > y.second : x.first < y.first;
    });
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    out << "@ lines=" << m_lines << " pairs=" << sorted.size() << " weight=" << m_weight << '\n';
    for (const auto& [key, count] : sorted) {
        const std::u32string pair{static_cast<char32_t>(key >> 32), static_cast<char32_t>(key & 0xffffffffu)};
        out << utf8::encode(pair) << '\t' << count << '\n';
    }
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

BigramTable BigramTable::load(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    BigramTable t;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.empty()) continue;
        if (line[0] == '@') {
            auto fields = tableHeaderFields(line, path, lineNo);
            if (fields.count("lines")) t.m_lines = static_cast<std::int64_t>(fields["lines"]);
            if (fields.count("weight")) {
                if (!(fields["weight"] >= 0)) badTableLine(path, lineNo, "weight must be 0 or more");
                t.m_weight = fields["weight"];
            }
            continue;
        }
        const auto tab = line.find('\t');
        if (tab == std::string::npos) badTableLine(path, lineNo, "expected \"two characters<TAB>count\"");
        std::u32string pair;
        try {
            pair = utf8::decode(line.substr(0, tab));
        } catch (const std::invalid_argument&) {
            badTableLine(path, lineNo, "not UTF-8");
        }
        if (pair.size() != 2) badTableLine(path, lineNo, "\"" + line.substr(0, tab) + "\" is not two characters");
        std::uint32_t count = 0;
        try {
            std::size_t used = 0;
            const long long c = std::stoll(line.substr(tab + 1), &used);
            if (c < 1 || c > 0xffffffffLL || used != line.size() - tab - 1) throw std::invalid_argument("count");
            count = static_cast<std::uint32_t>(c);
        } catch (const std::logic_error&) {
            badTableLine(path, lineNo, "the count \"" + line.substr(tab + 1) + "\" is not a whole number of at least 1");
        }
        t.m_counts[keyOf(pair[0], pair[1])] += count;
    }
    return t;
}

void BigramTable::bind(const Vocab& vocab, const WordTable* words)
{
    m_rows.assign(static_cast<std::size_t>(vocab.size()), {});
    m_han.assign(static_cast<std::size_t>(vocab.size()), false);
    for (int t = 0; t < vocab.size(); ++t) m_han[static_cast<std::size_t>(t)] = utf8::isHan(vocab.character(t));
    auto put = [&](char32_t a, char32_t b, float score) {
        const int ta = vocab.id(a), tb = vocab.id(b);
        if (!vocab.isCharacter(ta) || !vocab.isCharacter(tb)) return;
        m_rows[static_cast<std::size_t>(ta)].push_back({tb, score});
    };
    for (const auto& [key, count] : m_counts)
        put(static_cast<char32_t>(key >> 32), static_cast<char32_t>(key & 0xffffffffu), scoreOf(count));
    if (words) words->forEachPair([&](char32_t a, char32_t b) { put(a, b, 1.0f); });
    for (auto& row : m_rows) {
        // A pair both counted and a word: its best score, once.
        std::sort(row.begin(), row.end(), [](const Entry& x, const Entry& y) {
            return x.token != y.token ? x.token < y.token : x.score > y.score;
        });
        row.erase(std::unique(row.begin(), row.end(), [](const Entry& x, const Entry& y) { return x.token == y.token; }),
                  row.end());
        row.shrink_to_fit();
    }
}

const std::vector<BigramTable::Entry>& BigramTable::row(int previous) const
{
    static const std::vector<Entry> kEmpty;
    if (previous < 0 || static_cast<std::size_t>(previous) >= m_rows.size()) return kEmpty;
    return m_rows[static_cast<std::size_t>(previous)];
}

float BigramTable::score(int previous, int next) const
{
    const auto& r = row(previous);
    const auto it = std::lower_bound(r.begin(), r.end(), next, [](const Entry& e, int t) { return e.token < t; });
    return it != r.end() && it->token == next ? it->score : 0.0f;
}

int BigramTable::rarePairs(const std::vector<int>& line, float below) const
{
    auto han = [&](int t) { return t >= 0 && static_cast<std::size_t>(t) < m_han.size() && m_han[static_cast<std::size_t>(t)]; };
    int n = 0;
    for (std::size_t i = 1; i < line.size(); ++i)
        if (han(line[i - 1]) && han(line[i]) && score(line[i - 1], line[i]) < below) ++n;
    return n;
}

} // namespace couplet
