#include "training_data.h"

#include "style_lexicon.h"
#include "utf8.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace couplet {
namespace {

// Mixing weights: the modern set must set the style, the strictly parallel
// verse sets teach 对仗, the primers add short classical pairs.
double weightFor(const std::string& name)
{
    if (name == "modern") return 0.55;
    if (name == "verse-song") return 0.2;
    if (name == "verse-tang") return 0.15;
    if (name == "classical") return 0.1;
    return 0.1;
}

WritingStyle styleOfSource(const std::string& name)
{
    if (name.rfind("verse", 0) == 0) return WritingStyle::Verse;
    if (name == "classical") return WritingStyle::Classical;
    return WritingStyle::Modern;
}

// couplets/mix.txt, when a data folder has one: "name<TAB>weight[<TAB>hengpi]"
// lines that set how often a corpus file (couplets/name.tsv) is drawn, and
// whether its pairs get synthetic 横批 as modern.tsv's do. Files it does not
// name keep the built-in weights.
std::map<std::string, std::pair<double, bool>> readMix(const std::filesystem::path& path)
{
    std::map<std::string, std::pair<double, bool>> mix;
    std::ifstream in(path);
    if (!in) return mix;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string name, flag;
        double weight = -1;
        const bool read = static_cast<bool>(fields >> name >> weight);
        fields >> flag;
        if (!read || !(weight >= 0) || (!flag.empty() && flag != "hengpi"))
            throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo)
                                     + ": expected \"name<TAB>weight[<TAB>hengpi]\" with a weight of 0 or more");
        mix[name] = {weight, flag == "hengpi"};
    }
    return mix;
}

bool usableLine(const std::u32string& line)
{
    if (line.empty() || line.size() > static_cast<std::size_t>(tok::kMaxLineChars)) return false;
    if (isCoupletPunctuation(line.front()) || isCoupletPunctuation(line.back())) return false;
    return std::all_of(line.begin(), line.end(), [](char32_t c) { return utf8::isHan(c) || isCoupletPunctuation(c); });
}

bool usablePair(const std::u32string& up, const std::u32string& down)
{
    if (up.size() != down.size() || !usableLine(up) || !usableLine(down)) return false;
    for (std::size_t i = 0; i < up.size(); ++i)
        if (isCoupletPunctuation(up[i]) != isCoupletPunctuation(down[i])) return false;
    return true;
}

std::vector<CouplePair> readPairs(const std::filesystem::path& path, int source, std::size_t& skipped)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    std::vector<CouplePair> pairs;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto tab = line.find('\t');
        if (tab == std::string::npos || utf8::firstInvalid(line) != std::string::npos) {
            ++skipped;
            continue;
        }
        auto up = utf8::decode(line.substr(0, tab));
        auto down = utf8::decode(line.substr(tab + 1));
        if (!usablePair(up, down)) {
            ++skipped;
            continue;
        }
        pairs.push_back({std::move(up), std::move(down), source});
    }
    return pairs;
}

void appendChars(std::vector<int>& out, const std::u32string& s, const Vocab& vocab)
{
    for (char32_t c : s) out.push_back(vocab.id(c));
}

// A keyword: a run of 1-4 characters (2 most often) without punctuation.
std::u32string drawKeyword(const CouplePair& pair, std::mt19937_64& rng)
{
    std::discrete_distribution<int> lengths{0, 15, 60, 10, 15};
    const auto& line = std::uniform_int_distribution<int>(0, 1)(rng) == 0 ? pair.upper : pair.lower;
    const int n = static_cast<int>(line.size());
    const int len = std::min(n, lengths(rng));
    for (int attempt = 0; attempt < 4; ++attempt) {
        const int start = std::uniform_int_distribution<int>(0, n - len)(rng);
        auto kw = line.substr(start, len);
        if (std::none_of(kw.begin(), kw.end(), isCoupletPunctuation)) return kw;
    }
    return {};
}

} // namespace

TrainingData TrainingData::load(const std::filesystem::path& dataDir, double validFraction,
                                std::size_t maxValidPerSource)
{
    const auto couplets = dataDir / "couplets";
    if (!std::filesystem::is_directory(couplets))
        throw std::runtime_error(couplets.string() + ": no such folder (expected couplets/*.tsv)");
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(couplets))
        if (e.path().extension() == ".tsv") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw std::runtime_error(couplets.string() + ": no .tsv files");

    const auto mix = readMix(couplets / "mix.txt");
    TrainingData data;
    std::mt19937_64 rng(20260129);
    for (const auto& file : files) {
        CorpusSource src;
        src.name = file.stem().string();
        src.weight = weightFor(src.name);
        src.withHengpi = src.name == "modern";
        if (const auto it = mix.find(src.name); it != mix.end()) {
            src.weight = it->second.first;
            src.withHengpi = it->second.second;
        }
        auto pairs = readPairs(file, static_cast<int>(data.m_sources.size()), data.m_skipped);
        for (auto& p : pairs) p.style = styleOfSource(src.name);
        std::shuffle(pairs.begin(), pairs.end(), rng);
        const auto nValid = std::min(maxValidPerSource, static_cast<std::size_t>(pairs.size() * validFraction));
        src.valid.assign(pairs.begin(), pairs.begin() + static_cast<std::ptrdiff_t>(nValid));
        src.train.assign(pairs.begin() + static_cast<std::ptrdiff_t>(nValid), pairs.end());
        data.m_sources.push_back(std::move(src));
    }
    const auto idioms = dataDir / "idioms";
    if (std::filesystem::is_directory(idioms)) data.m_hengpi = HengpiList::fromIdioms(idioms);
    double total = 0;
    for (const auto& s : data.m_sources) data.m_cumulative.push_back(total += s.train.empty() ? 0 : s.weight);
    return data;
}

std::size_t TrainingData::labelStyles(const StyleLexicon& lexicon)
{
    std::size_t festive = 0;
    for (auto& s : m_sources) {
        if (styleOfSource(s.name) != WritingStyle::Modern) continue;
        for (auto* pairs : {&s.train, &s.valid})
            for (auto& p : *pairs) {
                p.style = lexicon.festive(p.upper, p.lower) ? WritingStyle::Festive : WritingStyle::Modern;
                festive += p.style == WritingStyle::Festive;
            }
    }
    return festive;
}

Vocab TrainingData::buildVocab(int minCount) const
{
    std::map<char32_t, long> counts;
    for (const auto& s : m_sources)
        for (const auto& p : s.train) {
            for (char32_t c : p.upper) ++counts[c];
            for (char32_t c : p.lower) ++counts[c];
        }
    for (const auto& p : m_hengpi.phrases())
        for (char32_t c : p.text) counts[c] += minCount;
    std::vector<std::pair<long, char32_t>> order;
    for (const auto& [c, n] : counts)
        if (n >= minCount) order.push_back({-n, c});
    std::sort(order.begin(), order.end());
    std::vector<char32_t> chars;
    for (const auto& [n, c] : order) chars.push_back(c);
    return Vocab(chars);
}

void TrainingData::restrictTo(const Vocab& vocab)
{
    auto known = [&](const CouplePair& p) {
        return std::all_of(p.upper.begin(), p.upper.end(), [&](char32_t c) { return vocab.contains(c); })
            && std::all_of(p.lower.begin(), p.lower.end(), [&](char32_t c) { return vocab.contains(c); });
    };
    for (auto& s : m_sources) {
        const auto before = s.train.size() + s.valid.size();
        std::erase_if(s.train, [&](const CouplePair& p) { return !known(p); });
        std::erase_if(s.valid, [&](const CouplePair& p) { return !known(p); });
        m_skipped += before - s.train.size() - s.valid.size();
    }
    m_hengpi.restrictTo(vocab);
}

const CouplePair& TrainingData::drawPair(std::mt19937_64& rng) const
{
    const double r = std::uniform_real_distribution<double>(0, m_cumulative.back())(rng);
    const auto idx = std::upper_bound(m_cumulative.begin(), m_cumulative.end(), r) - m_cumulative.begin();
    const auto& train = m_sources[std::min<std::size_t>(idx, m_sources.size() - 1)].train;
    return train[std::uniform_int_distribution<std::size_t>(0, train.size() - 1)(rng)];
}

TrainingExample TrainingData::makeExample(const CouplePair& pair, const Vocab& vocab, std::mt19937_64& rng) const
{
    std::uniform_real_distribution<double> coin(0, 1);
    TrainingExample ex;
    auto& t = ex.tokens;
    t.push_back(tok::kBos);
    if (vocab.hasStyles()) t.push_back(vocab.styleToken(pair.style));
    if (coin(rng) < 0.6) {
        t.push_back(tok::kKeywords);
        const int count = coin(rng) < 0.5 ? 1 : 2;
        for (int k = 0; k < count; ++k) {
            const auto kw = drawKeyword(pair, rng);
            if (kw.empty()) continue;
            if (k > 0) t.push_back(tok::kSep);
            appendChars(t, kw, vocab);
        }
    }
    if (coin(rng) < 0.1) {
        t.push_back(tok::kAcrostic);
        t.push_back(vocab.id(pair.upper.front()));
        t.push_back(vocab.id(pair.lower.front()));
    }
    // The lengths a user picks (5, 7, 9) always carry their token, so that the
    // token shapes the whole line; other lengths sometimes go without, which
    // teaches the free-length mode.
    const int length = static_cast<int>(pair.upper.size());
    const bool pickable = length == 5 || length == 7 || length == 9;
    if (pickable || coin(rng) < 0.85) t.push_back(tok::lengthToken(length));
    t.push_back(tok::kUpper);
    const std::size_t promptEnd = t.size(); // targets start with the first 上联 character
    appendChars(t, pair.upper, vocab);
    t.push_back(tok::kLower);
    appendChars(t, pair.lower, vocab);
    if (m_sources[pair.source].withHengpi && coin(rng) < 0.7) {
        const auto related = m_hengpi.related(pair.upper + pair.lower, 3);
        if (!related.empty()) {
            const auto pick = related[std::uniform_int_distribution<std::size_t>(0, related.size() - 1)(rng)];
            t.push_back(tok::kHengpi);
            appendChars(t, m_hengpi.phrases()[pick].text, vocab);
        }
    }
    t.push_back(tok::kEos);
    ex.target.assign(t.size(), 0);
    for (std::size_t i = promptEnd - 1; i + 1 < t.size(); ++i) ex.target[i] = 1;
    return ex;
}

TrainingExample TrainingData::lowerLineExample(const CouplePair& pair, const Vocab& vocab, const ExamplePair* example,
                                               int maxLen)
{
    std::vector<int> upper, lower;
    appendChars(upper, pair.upper, vocab);
    appendChars(lower, pair.lower, vocab);
    auto ex = answerExample(upper, lower, vocab.hasStyles() ? vocab.styleToken(pair.style) : -1);
    if (example != nullptr) addExample(ex, *example, vocab, maxLen);
    return ex;
}

bool TrainingData::addExample(TrainingExample& ex, const ExamplePair& example, const Vocab& vocab, int maxLen)
{
    const auto prefix = examplePrefix(vocab, example);
    if (prefix.empty() || ex.tokens.size() + prefix.size() > static_cast<std::size_t>(maxLen)) return false;
    const auto at = static_cast<std::ptrdiff_t>(examplePrefixAt(ex.tokens, vocab));
    ex.tokens.insert(ex.tokens.begin() + at, prefix.begin(), prefix.end());
    ex.target.insert(ex.target.begin() + at, prefix.size(), 0);
    return true;
}

} // namespace couplet
