#include "example_index.h"

#include "occasion.h"
#include "utf8.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>
#include <unordered_set>

namespace couplet {
namespace {

std::uint64_t bigramKey(char32_t a, char32_t b)
{
    return (static_cast<std::uint64_t>(a) << 32) | b;
}

// The distinct bigrams of a text without punctuation in them.
std::vector<std::uint64_t> bigramsOf(std::u32string_view text)
{
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i + 1 < text.size(); ++i)
        if (!isCoupletPunctuation(text[i]) && !isCoupletPunctuation(text[i + 1]))
            out.push_back(bigramKey(text[i], text[i + 1]));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::uint64_t mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

bool sharesLine(const ExamplePair& p, std::u32string_view upper, std::u32string_view lower)
{
    return p.upper == upper || p.upper == lower || p.lower == upper || p.lower == lower;
}

} // namespace

std::vector<int> examplePrefix(const Vocab& vocab, const ExamplePair& example)
{
    if (!vocab.hasExamples()) return {};
    std::vector<int> t{vocab.exampleToken()};
    for (char32_t c : example.upper) t.push_back(vocab.id(c));
    t.push_back(tok::kSep);
    for (char32_t c : example.lower) t.push_back(vocab.id(c));
    return t;
}

std::size_t examplePrefixAt(const std::vector<int>& tokens, const Vocab& vocab)
{
    std::size_t at = !tokens.empty() && tokens.front() == tok::kBos ? 1 : 0;
    if (at < tokens.size() && vocab.hasStyles())
        for (WritingStyle s : kWritingStyles)
            if (tokens[at] == vocab.styleToken(s)) return at + 1;
    return at;
}

std::optional<ExamplePair> exampleIn(const std::vector<int>& tokens, const Vocab& vocab)
{
    std::size_t at = examplePrefixAt(tokens, vocab);
    if (!vocab.hasExamples() || at >= tokens.size() || tokens[at] != vocab.exampleToken()) return std::nullopt;
    ExamplePair p;
    std::u32string* line = &p.upper;
    for (++at; at < tokens.size(); ++at) {
        const int t = tokens[at];
        if (t == tok::kSep && line == &p.upper) {
            line = &p.lower;
            continue;
        }
        if (!vocab.isCharacter(t)) break;
        line->push_back(vocab.character(t));
    }
    if (line != &p.lower || p.upper.empty() || p.upper.size() != p.lower.size()) return std::nullopt;
    return p;
}

bool copiesExample(std::u32string_view upper, std::u32string_view lower, const ExamplePair& example)
{
    return (!upper.empty() && (upper == example.upper || upper == example.lower))
        || (!lower.empty() && (lower == example.upper || lower == example.lower));
}

ExampleIndex::ExampleIndex(std::vector<ExamplePair> pairs, const ThemeLexicon& lexicon, std::size_t maxChars)
{
    for (auto& p : pairs)
        if (!p.upper.empty() && p.upper.size() <= maxChars && p.upper.size() == p.lower.size())
            m_pairs.push_back(std::move(p));
    build(lexicon);
}

void ExampleIndex::build(const ThemeLexicon& lexicon)
{
    m_themeNames = lexicon.themeNames();
    m_themeWords.clear();
    for (const auto& name : m_themeNames) {
        std::vector<std::u32string> words;
        for (const auto& w : lexicon.words(name))
            if (w.size() >= 2) words.push_back(w);
        m_themeWords.push_back(std::move(words));
    }
    m_byTheme.assign(m_themeNames.size(), {});
    m_pairThemes.assign(m_pairs.size(), {});
    m_pairThemeWords.assign(m_pairs.size(), {});
    m_pairOccasions.assign(m_pairs.size(), 0);
    m_byBigram.clear();
    for (std::size_t i = 0; i < m_pairs.size(); ++i) {
        const auto& p = m_pairs[i];
        const std::u32string text = p.upper + U'|' + p.lower;
        m_pairOccasions[i] = occasionsOf(text);
        for (std::size_t t = 0; t < m_themeWords.size(); ++t) {
            int words = 0;
            for (const auto& w : m_themeWords[t]) words += text.find(w) != std::u32string::npos;
            if (words == 0) continue;
            m_pairThemes[i].push_back(static_cast<int>(t));
            m_pairThemeWords[i].push_back(words);
            m_byTheme[t].push_back(static_cast<std::uint32_t>(i));
        }
        std::vector<std::uint64_t> grams = bigramsOf(p.upper);
        for (auto g : bigramsOf(p.lower)) grams.push_back(g);
        std::sort(grams.begin(), grams.end());
        grams.erase(std::unique(grams.begin(), grams.end()), grams.end());
        for (auto g : grams) m_byBigram[g].push_back(static_cast<std::uint32_t>(i));
    }
}

ExampleIndex ExampleIndex::load(const std::filesystem::path& path, const ThemeLexicon& lexicon)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    std::vector<ExamplePair> pairs;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto tab = line.find('\t');
        try {
            if (tab == std::string::npos) throw std::invalid_argument("needs 上联<TAB>下联");
            ExamplePair p{utf8::decode(line.substr(0, tab)), utf8::decode(line.substr(tab + 1))};
            if (p.upper.empty() || p.upper.size() != p.lower.size())
                throw std::invalid_argument("the two lines must be non-empty and of one length");
            pairs.push_back(std::move(p));
        } catch (const std::exception& e) {
            throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo) + ": " + e.what());
        }
    }
    return ExampleIndex(std::move(pairs), lexicon, static_cast<std::size_t>(tok::kMaxLineChars));
}

void ExampleIndex::save(const std::filesystem::path& path) const
{
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    for (const auto& p : m_pairs) out << utf8::encode(p.upper) << '\t' << utf8::encode(p.lower) << '\n';
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::optional<std::size_t> ExampleIndex::related(std::u32string_view upper, std::u32string_view lower,
                                                 std::mt19937_64& rng) const
{
    if (m_pairs.empty()) return std::nullopt;
    auto pick = [&](const std::vector<std::uint32_t>& list) -> std::optional<std::size_t> {
        for (int attempt = 0; attempt < 4 && !list.empty(); ++attempt) {
            const auto i = list[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(rng)];
            if (!sharesLine(m_pairs[i], upper, lower)) return i;
        }
        return std::nullopt;
    };
    const std::u32string text = std::u32string(upper) + U'|' + std::u32string(lower);
    std::vector<std::size_t> themes;
    for (std::size_t t = 0; t < m_themeWords.size(); ++t)
        for (const auto& w : m_themeWords[t])
            if (text.find(w) != std::u32string::npos) {
                themes.push_back(t);
                break;
            }
    // Half by theme (as generation finds an occasion's couplets), half by a shared bigram.
    if (!themes.empty() && std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
        const auto t = themes[std::uniform_int_distribution<std::size_t>(0, themes.size() - 1)(rng)];
        if (auto i = pick(m_byTheme[t])) return i;
    }
    const auto grams = bigramsOf(text);
    if (grams.empty()) return std::nullopt;
    for (int attempt = 0; attempt < 3; ++attempt) {
        const auto g = grams[std::uniform_int_distribution<std::size_t>(0, grams.size() - 1)(rng)];
        const auto it = m_byBigram.find(g);
        if (it == m_byBigram.end()) continue;
        if (auto i = pick(it->second)) return i;
    }
    return std::nullopt;
}

std::optional<std::size_t> ExampleIndex::best(std::u32string_view query, const std::vector<std::string>& themes,
                                              std::uint64_t seed) const
{
    std::unordered_map<std::uint32_t, double> score;
    for (auto g : bigramsOf(query)) {
        const auto it = m_byBigram.find(g);
        if (it == m_byBigram.end()) continue;
        for (auto i : it->second) score[i] += 2;
    }
    for (const auto& name : themes) {
        const auto it = std::find(m_themeNames.begin(), m_themeNames.end(), name);
        if (it == m_themeNames.end()) continue;
        const int t = static_cast<int>(it - m_themeNames.begin());
        for (auto i : m_byTheme[static_cast<std::size_t>(t)]) score[i] += std::min(themeWordsOf(i, t), 2);
    }
    // The occasion the query names, in the couplet's own cue words.
    const unsigned occasions = occasionsOf(query);
    if (occasions != 0)
        for (std::size_t i = 0; i < m_pairs.size(); ++i)
            if (m_pairOccasions[i] & occasions) score[static_cast<std::uint32_t>(i)] += 3;
    // The query's characters break ties between couplets of the same score.
    std::vector<std::pair<double, std::uint32_t>> ranked;
    for (const auto& [i, s] : score) {
        const auto& p = m_pairs[i];
        if (sharesLine(p, query, query)) continue;
        double chars = 0;
        for (char32_t c : query)
            if (!isCoupletPunctuation(c) && (p.upper.find(c) != std::u32string::npos || p.lower.find(c) != std::u32string::npos))
                chars += 1;
        ranked.push_back({s + 0.1 * std::min(chars, 9.0), i});
    }
    if (ranked.empty()) return std::nullopt;
    const double top = std::max_element(ranked.begin(), ranked.end())->first;
    std::vector<std::uint32_t> tied;
    for (const auto& [s, i] : ranked)
        if (s >= top) tied.push_back(i);
    std::sort(tied.begin(), tied.end());
    return tied[mix(seed) % tied.size()];
}

int ExampleIndex::themeWordsOf(std::size_t pair, int theme) const
{
    const auto& themes = m_pairThemes[pair];
    const auto it = std::find(themes.begin(), themes.end(), theme);
    return it == themes.end() ? 0 : m_pairThemeWords[pair][static_cast<std::size_t>(it - themes.begin())];
}

ExampleIndex ExampleIndex::sample(std::size_t perTheme, const ThemeLexicon& lexicon, std::mt19937_64& rng) const
{
    std::set<std::uint32_t> chosen;
    auto take = [&](std::vector<std::uint32_t> list, int theme) {
        std::shuffle(list.begin(), list.end(), rng);
        if (theme >= 0) {
            const auto bit = occasionNamed(m_themeNames[static_cast<std::size_t>(theme)]);
            const auto rank = [&](std::uint32_t i) {
                return (bit && (m_pairOccasions[i] & *bit) ? 100 : 0) + themeWordsOf(i, theme);
            };
            std::stable_sort(list.begin(), list.end(), [&](auto a, auto b) { return rank(a) > rank(b); });
        }
        if (list.size() > perTheme) list.resize(perTheme);
        chosen.insert(list.begin(), list.end());
    };
    for (std::size_t t = 0; t < m_byTheme.size(); ++t) take(m_byTheme[t], static_cast<int>(t));
    std::vector<std::uint32_t> plain;
    for (std::size_t i = 0; i < m_pairs.size(); ++i)
        if (m_pairThemes[i].empty()) plain.push_back(static_cast<std::uint32_t>(i));
    take(std::move(plain), -1);
    std::vector<ExamplePair> pairs;
    for (auto i : chosen) pairs.push_back(m_pairs[i]);
    return ExampleIndex(std::move(pairs), lexicon, static_cast<std::size_t>(tok::kMaxLineChars));
}

} // namespace couplet
