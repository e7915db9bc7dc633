#include "align_table.h"

#include "table_header.h"
#include "utf8.h"
#include "vocab.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace couplet {
namespace {

char32_t singleChar(const std::string& text)
{
    std::u32string c;
    try {
        c = utf8::decode(text);
    } catch (const std::invalid_argument&) {
        return 0;
    }
    return c.size() == 1 ? c[0] : 0;
}

} // namespace

AlignTable::Row& AlignTable::rowOf(char32_t c)
{
    return m_counts[c];
}

void AlignTable::addPair(const std::u32string& upper, const std::u32string& lower, std::uint32_t times)
{
    const std::size_t n = std::min(upper.size(), lower.size());
    if (n == 0 || times == 0) return;
    m_lines += 2 * std::int64_t(times);
    rowOf(upper[n - 1]).atEnd += times;
    rowOf(lower[n - 1]).atEnd += times;
    for (std::size_t i = 0; i < n; ++i) {
        const char32_t a = upper[i], b = lower[i];
        if (isCoupletPunctuation(a) || isCoupletPunctuation(b) || a == b) continue;
        m_positions += times;
        Row& row = rowOf(a);
        row.asUpper += times;
        rowOf(b).asLower += times;
        const std::uint64_t key = (std::uint64_t(a) << 32) | b;
        const auto [it, added] = m_pairIndex.try_emplace(key, static_cast<std::uint32_t>(row.cells.size()));
        if (added) row.cells.push_back({b, 0});
        row.cells[it->second].count += times;
    }
}

double AlignTable::pairScore(const Cell& cell) const
{
    if (m_logCount) return std::log(static_cast<double>(cell.count));
    const auto it = m_counts.find(cell.lower);
    const double asLower = it == m_counts.end() ? 0.0 : static_cast<double>(it->second.asLower);
    const double prior = std::max(asLower, 1.0) / static_cast<double>(std::max<std::int64_t>(m_positions, 1));
    return std::log1p(static_cast<double>(cell.count) / (m_alpha * prior));
}

void AlignTable::prune(const BuildOptions& options)
{
    m_alpha = options.alpha;
    m_weight = options.weight;
    m_logCount = options.logCount;
    m_byMix = options.byMix;
    m_pairIndex.clear();
    for (auto& [a, row] : m_counts) {
        std::erase_if(row.cells, [&](const Cell& c) { return c.count < static_cast<std::uint32_t>(options.minCount); });
        std::vector<std::pair<double, std::size_t>> order;
        for (std::size_t i = 0; i < row.cells.size(); ++i) order.push_back({-pairScore(row.cells[i]), i});
        std::sort(order.begin(), order.end());
        std::vector<Cell> kept;
        for (std::size_t i = 0; i < order.size() && i < static_cast<std::size_t>(options.topK); ++i)
            kept.push_back(row.cells[order[i].second]);
        row.cells = std::move(kept);
    }
}

void AlignTable::save(const std::filesystem::path& path) const
{
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    out << "@ positions=" << m_positions << " lines=" << m_lines << " alpha=" << m_alpha << " weight=" << m_weight
        << " score=" << (m_logCount ? "logcount" : "pmi") << (m_byMix ? " mix=1" : "") << '\n';
    std::map<char32_t, const Row*> sorted;
    for (const auto& [a, row] : m_counts) sorted[a] = &row;
    for (const auto& [a, row] : sorted) {
        out << utf8::encode(a) << '\t' << row->asUpper << '\t' << row->asLower << '\t' << row->atEnd << '\t';
        for (std::size_t i = 0; i < row->cells.size(); ++i)
            out << (i ? " " : "") << utf8::encode(row->cells[i].lower) << ':' << row->cells[i].count;
        out << '\n';
    }
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

AlignTable AlignTable::load(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    AlignTable table;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (lineNo == 1) {
            if (line.empty() || line[0] != '@')
                badTableLine(path, lineNo, "expected the header \"@ positions=N lines=L alpha=A weight=W\"");
            auto fields = tableHeaderFields(line, path, lineNo, {"score"}); // score= is a word
            if (!fields.count("positions") || !fields.count("lines") || !fields.count("alpha") || !(fields["alpha"] > 0))
                badTableLine(path, lineNo, "the header needs positions=N, lines=L and alpha=A (A > 0)");
            table.m_positions = static_cast<std::int64_t>(fields["positions"]);
            table.m_lines = static_cast<std::int64_t>(fields["lines"]);
            table.m_alpha = fields["alpha"];
            table.m_weight = fields.count("weight") ? fields["weight"] : table.m_weight;
            table.m_logCount = line.find("score=logcount") != std::string::npos;
            table.m_byMix = fields.count("mix") && fields["mix"] != 0;
            continue;
        }
        std::istringstream fields(line);
        std::string a, entries;
        Row row;
        if (!std::getline(fields, a, '\t') || !(fields >> row.asUpper >> row.asLower >> row.atEnd) || singleChar(a) == 0)
            badTableLine(path, lineNo, "expected \"character<TAB>count<TAB>count<TAB>count<TAB>pairs\"");
        std::string cell;
        while (fields >> cell) {
            const auto colon = cell.rfind(':');
            const char32_t b = colon == std::string::npos ? 0 : singleChar(cell.substr(0, colon));
            if (b == 0) badTableLine(path, lineNo, "expected \"character:count\", found \"" + cell + "\"");
            row.cells.push_back({b, static_cast<std::uint32_t>(std::stoul(cell.substr(colon + 1)))});
        }
        table.m_counts[singleChar(a)] = std::move(row);
    }
    if (lineNo == 0) throw std::runtime_error(path.string() + ": empty file");
    return table;
}

void AlignTable::bind(const Vocab& vocab)
{
    m_rows.assign(static_cast<std::size_t>(vocab.size()), {});
    m_closing.assign(static_cast<std::size_t>(vocab.size()), 0.0f);
    const double lines = static_cast<double>(std::max<std::int64_t>(m_lines, 1));
    const double occurrences = 2.0 * static_cast<double>(std::max<std::int64_t>(m_positions, 1));
    for (const auto& [a, row] : m_counts) {
        if (!vocab.contains(a)) continue;
        m_closing[static_cast<std::size_t>(vocab.id(a))] = static_cast<float>(
            std::log((static_cast<double>(row.atEnd) + 0.5) / lines)
            - std::log((static_cast<double>(row.asUpper + row.asLower) + 0.5) / occurrences));
        auto& out = m_rows[static_cast<std::size_t>(vocab.id(a))];
        for (const auto& cell : row.cells)
            if (vocab.contains(cell.lower))
                out.push_back({vocab.id(cell.lower), static_cast<float>(pairScore(cell))});
        std::sort(out.begin(), out.end(), [](const Entry& x, const Entry& y) { return x.token < y.token; });
    }
}

const std::vector<AlignTable::Entry>& AlignTable::row(int upperToken) const
{
    static const std::vector<Entry> kEmpty;
    if (upperToken < 0 || static_cast<std::size_t>(upperToken) >= m_rows.size()) return kEmpty;
    return m_rows[static_cast<std::size_t>(upperToken)];
}

float AlignTable::score(int upperToken, int lowerToken) const
{
    const auto& r = row(upperToken);
    const auto it = std::lower_bound(r.begin(), r.end(), lowerToken, [](const Entry& e, int t) { return e.token < t; });
    return it != r.end() && it->token == lowerToken ? it->score : 0.0f;
}

float AlignTable::closing(int token) const
{
    return token >= 0 && static_cast<std::size_t>(token) < m_closing.size() ? m_closing[static_cast<std::size_t>(token)]
                                                                              : 0.0f;
}

double AlignTable::coupletScore(const std::vector<int>& upper, const std::vector<int>& lower) const
{
    double sum = 0;
    int n = 0;
    for (std::size_t i = 0; i < upper.size() && i < lower.size(); ++i) {
        if (upper[i] == lower[i]) continue; // mirrored punctuation
        sum += score(upper[i], lower[i]);
        ++n;
    }
    return n == 0 ? 0.0 : sum / n;
}

} // namespace couplet
