#include "couplet_judge.h"

#include "align_table.h"
#include "couplet_scorer.h"
#include "fnv1a.h"
#include "theme_lexicon.h"
#include "tone_table.h"
#include "vocab.h"
#include "word_table.h"
#include "word_terms.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>

namespace couplet {
namespace {

constexpr char kMagic[8] = {'C', 'P', 'J', 'U', 'D', 'G', 'E', '\0'};
constexpr int kMinHashBits = 10, kMaxHashBits = 24;
constexpr char32_t kLineStart = U'^', kLineEnd = U'$';

// A feature's name, hashed as it is built: a tag, then characters and small numbers.
class FeatureHash {
public:
    explicit FeatureHash(char tag) { add(static_cast<char32_t>(tag)); }
    FeatureHash& add(char32_t c)
    {
        m_h = (m_h ^ c) * kFnv1aPrime;
        return *this;
    }
    FeatureHash& add(std::u32string_view s)
    {
        for (char32_t c : s) add(c);
        return add(U'|');
    }
    // splitmix64's finaliser, then the top `bits` bits.
    std::uint32_t index(int bits) const
    {
        std::uint64_t z = m_h;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        return static_cast<std::uint32_t>(z >> (64 - bits));
    }

private:
    std::uint64_t m_h = kFnv1aOffset;
};

// A word of a line's split: where it starts in the line, its text and part of speech.
struct LineWord {
    std::size_t start = 0;
    std::u32string_view text;
    char pos = '?';
};

std::vector<LineWord> wordsOf(const WordTable& table, std::u32string_view line)
{
    std::vector<LineWord> out;
    for (const auto clause : clausesOf(line)) {
        std::size_t at = static_cast<std::size_t>(clause.data() - line.data());
        for (int len : table.segment(clause)) {
            LineWord w;
            w.start = at;
            w.text = line.substr(at, static_cast<std::size_t>(len));
            if (const auto* found = table.find(w.text)) w.pos = found->pos;
            out.push_back(w);
            at += static_cast<std::size_t>(len);
        }
    }
    return out;
}

std::vector<int> idsOf(const Vocab& vocab, const std::u32string& line)
{
    std::vector<int> ids;
    ids.reserve(line.size());
    for (char32_t c : line) ids.push_back(vocab.id(c));
    return ids;
}

class FeatureSink {
public:
    FeatureSink(std::vector<std::uint32_t>& out, int bits) : m_out(out), m_bits(bits) {}
    void operator()(const FeatureHash& h) { m_out.push_back(h.index(m_bits)); }

private:
    std::vector<std::uint32_t>& m_out;
    int m_bits;
};

// Characters, bigrams and trigrams of one line (side 0 = 上联, 1 = 下联).
void addLineFeatures(FeatureSink& add, char32_t side, const std::u32string& line)
{
    std::u32string padded;
    padded.reserve(line.size() + 2);
    padded.push_back(kLineStart);
    padded += line;
    padded.push_back(kLineEnd);
    for (std::size_t i = 1; i + 1 < padded.size(); ++i) add(FeatureHash('u').add(side).add(padded[i]));
    for (std::size_t i = 0; i + 1 < padded.size(); ++i)
        add(FeatureHash('b').add(side).add(padded[i]).add(padded[i + 1]));
    for (std::size_t i = 0; i + 2 < padded.size(); ++i)
        add(FeatureHash('t').add(side).add(padded[i]).add(padded[i + 1]).add(padded[i + 2]));
}

// The two lines side by side: aligned characters and bigrams, the first and last pairs, the length.
void addPairFeatures(FeatureSink& add, const std::u32string& up, const std::u32string& down)
{
    const std::size_t n = std::min(up.size(), down.size());
    add(FeatureHash('n').add(static_cast<char32_t>(n)));
    for (std::size_t i = 0; i < n; ++i) add(FeatureHash('p').add(up[i]).add(down[i]));
    for (std::size_t i = 0; i + 1 < n; ++i) add(FeatureHash('q').add(up[i]).add(up[i + 1]).add(down[i]).add(down[i + 1]));
    if (n > 0) {
        add(FeatureHash('f').add(up[0]).add(down[0]));
        add(FeatureHash('e').add(up[n - 1]).add(down[n - 1]));
    }
}

// words.tsv's split of each line: its words, single characters, word-length
// and part-of-speech patterns, and the words that stand at the same places.
void addWordFeatures(FeatureSink& add, const WordTable& table, const std::u32string& up, const std::u32string& down)
{
    const std::vector<LineWord> lines[2] = {wordsOf(table, up), wordsOf(table, down)};
    for (char32_t side = 0; side < 2; ++side) {
        FeatureHash lengths('s'), parts('o');
        lengths.add(side);
        parts.add(side);
        for (const auto& w : lines[side]) {
            add(FeatureHash(w.text.size() > 1 ? 'w' : '1').add(side).add(w.text));
            lengths.add(static_cast<char32_t>(w.text.size()));
            parts.add(static_cast<char32_t>(w.text.size() > 1 ? w.pos : '1'));
        }
        add(lengths);
        add(parts);
    }
    std::map<std::size_t, const LineWord*> upAt;
    for (const auto& w : lines[0]) upAt[w.start] = &w;
    int unmatched = 0;
    for (const auto& d : lines[1]) {
        const auto it = upAt.find(d.start);
        if (it == upAt.end()) {
            ++unmatched;
            continue;
        }
        const LineWord& u = *it->second;
        if (u.text.size() != d.text.size()) {
            add(FeatureHash('M').add(static_cast<char32_t>(u.text.size())).add(static_cast<char32_t>(d.text.size())));
            continue;
        }
        if (u.text.size() > 1) add(FeatureHash('W').add(u.text).add(d.text));
        add(FeatureHash('P').add(static_cast<char32_t>(u.text.size())).add(static_cast<char32_t>(u.pos)).add(static_cast<char32_t>(d.pos)));
    }
    add(FeatureHash('U').add(static_cast<char32_t>(std::min(unmatched, 4))));
}

template <typename T>
void writeValue(std::string& out, const T& value)
{
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename T>
T readValue(const std::string& in, std::size_t& at, const std::filesystem::path& path)
{
    T value;
    if (at + sizeof value > in.size()) throw std::runtime_error(path.string() + ": ends early (the file is cut short)");
    std::memcpy(&value, in.data() + at, sizeof value);
    at += sizeof value;
    return value;
}

} // namespace

CoupletJudge::CoupletJudge(int hashBits, std::uint64_t tablesFingerprint)
    : m_hashBits(hashBits), m_fingerprint(tablesFingerprint), m_sparse(std::size_t(1) << hashBits, 0.0f)
{
    if (hashBits < kMinHashBits || hashBits > kMaxHashBits)
        throw std::invalid_argument("judge hash bits must be " + std::to_string(kMinHashBits) + " to "
                                    + std::to_string(kMaxHashBits) + ", not " + std::to_string(hashBits));
}

JudgeFeatures CoupletJudge::features(const std::u32string& upper, const std::u32string& lower, const JudgeTables& t) const
{
    JudgeFeatures f;
    f.sparse.reserve(12 * upper.size() + 24);
    FeatureSink add(f.sparse, m_hashBits);
    addLineFeatures(add, 0, upper);
    addLineFeatures(add, 1, lower);
    addPairFeatures(add, upper, lower);
    const double n = std::max<std::size_t>(1, upper.size() + lower.size());
    // The rule terms, each also as a bucket (an indicator of its own), so
    // that a middling value may count for more than either end: people's
    // 对仗 is good but looser than the model's, which decoding fuses with
    // the table.
    auto bucket = [&](char tag, double value, double lo, double hi) {
        add(FeatureHash(tag).add(static_cast<char32_t>(std::lround(std::clamp(value, lo, hi) - lo) + 1)));
    };
    if (t.align != nullptr && t.vocab != nullptr) {
        const auto ups = idsOf(*t.vocab, upper), downs = idsOf(*t.vocab, lower);
        const double mean = t.align->coupletScore(ups, downs);
        f.dense[0] = static_cast<float>(mean / 4);
        bucket('A', 2 * mean, -4, 16);
        for (std::size_t i = 0; i < ups.size() && i < downs.size(); ++i)
            if (ups[i] != downs[i] && t.vocab->isHan(ups[i]) && t.vocab->isHan(downs[i]))
                bucket('a', t.align->score(ups[i], downs[i]), -4, 10);
    }
    if (t.tones != nullptr && t.vocab != nullptr) {
        f.dense[1] = static_cast<float>(CoupletScorer(*t.vocab, *t.tones, nullptr).toneScore(upper, lower));
        bucket('T', 4 * f.dense[1], 0, 4);
    }
    const int repeats = CoupletScorer::repeatedCharacters(upper, lower) + CoupletScorer::repeatedCharacters(lower, upper);
    f.dense[2] = static_cast<float>(repeats) / 2;
    bucket('r', repeats, 0, 4);
    if (t.words != nullptr && !t.words->empty()) {
        addWordFeatures(add, *t.words, upper, lower);
        const WordTerms w = wordTermsOf(*t.words, upper, lower, {});
        f.dense[3] = static_cast<float>(w.looseCharacters / n);
        f.dense[4] = static_cast<float>(w.matchedWords);
        bucket('l', w.looseCharacters, 0, 6);
        bucket('m', 4 * w.matchedWords, 0, 4);
    }
    f.dense[5] = static_cast<float>(melancholyCharacters(upper + U"\n" + lower, U""));
    return f;
}

double CoupletJudge::score(const JudgeFeatures& f) const
{
    double s = m_bias;
    for (int i = 0; i < JudgeFeatures::kDense; ++i) s += static_cast<double>(m_dense[i]) * f.dense[i];
    for (std::uint32_t i : f.sparse) s += m_sparse[i];
    return s;
}

double CoupletJudge::score(const std::u32string& upper, const std::u32string& lower, const JudgeTables& tables) const
{
    if (empty()) return 0;
    return score(features(upper, lower, tables));
}

// judge.bin, little-endian: the magic "CPJUDGE\0", u32 format version, u32
// feature version, u32 hash bits, u32 dense count, u64 tables fingerprint,
// f32 bias, f32 dense[dense count], f32 sparse[2^hash bits], then u64 FNV-1a
// of everything before it.
void CoupletJudge::save(const std::filesystem::path& path) const
{
    if (empty()) throw std::runtime_error(path.string() + ": cannot save an empty judge");
    std::string out(kMagic, sizeof kMagic);
    writeValue(out, kFormatVersion);
    writeValue(out, kFeatureVersion);
    writeValue(out, static_cast<std::uint32_t>(m_hashBits));
    writeValue(out, static_cast<std::uint32_t>(JudgeFeatures::kDense));
    writeValue(out, m_fingerprint);
    writeValue(out, m_bias);
    for (float w : m_dense) writeValue(out, w);
    out.append(reinterpret_cast<const char*>(m_sparse.data()), m_sparse.size() * sizeof(float));
    writeValue(out, fnv1a(kFnv1aOffset, out.data(), out.size()));
    const auto temporary = std::filesystem::path(path.string() + ".tmp");
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        file.write(out.data(), static_cast<std::streamsize>(out.size()));
        if (!file.flush()) throw std::runtime_error(temporary.string() + ": cannot write");
    }
    std::filesystem::rename(temporary, path);
}

CoupletJudge CoupletJudge::load(const std::filesystem::path& path, std::uint64_t tablesFingerprint)
{
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::runtime_error(path.string() + ": cannot open");
    const std::string in((std::istreambuf_iterator<char>(file)), {});
    const std::string retrain = ": train it again with `couplet train-judge`, or delete it to rank without a judge";
    if (in.size() < sizeof kMagic || std::memcmp(in.data(), kMagic, sizeof kMagic) != 0)
        throw std::runtime_error(path.string() + ": not a couplet judge file (no CPJUDGE header)");
    std::size_t at = sizeof kMagic;
    const auto format = readValue<std::uint32_t>(in, at, path);
    const auto featureSet = readValue<std::uint32_t>(in, at, path);
    if (format != kFormatVersion || featureSet != kFeatureVersion)
        throw std::runtime_error(path.string() + ": format " + std::to_string(format) + ", feature set "
                                 + std::to_string(featureSet) + "; this build reads format " + std::to_string(kFormatVersion)
                                 + ", feature set " + std::to_string(kFeatureVersion) + retrain);
    const auto bits = readValue<std::uint32_t>(in, at, path);
    const auto dense = readValue<std::uint32_t>(in, at, path);
    if (bits < kMinHashBits || bits > kMaxHashBits || dense != JudgeFeatures::kDense)
        throw std::runtime_error(path.string() + ": damaged header (hash bits " + std::to_string(bits) + ", dense features "
                                 + std::to_string(dense) + ")" + retrain);
    const std::size_t expected = at + 8 + 4 + 4 * dense + (std::size_t(4) << bits) + 8;
    if (in.size() != expected)
        throw std::runtime_error(path.string() + ": " + std::to_string(in.size()) + " bytes where its header says "
                                 + std::to_string(expected) + " (the file is cut short or damaged)" + retrain);
    std::uint64_t stored;
    std::memcpy(&stored, in.data() + in.size() - 8, 8);
    if (fnv1a(kFnv1aOffset, in.data(), in.size() - 8) != stored)
        throw std::runtime_error(path.string() + ": checksum mismatch (the file is damaged)" + retrain);
    CoupletJudge judge(static_cast<int>(bits), readValue<std::uint64_t>(in, at, path));
    if (tablesFingerprint != 0 && judge.m_fingerprint != tablesFingerprint)
        throw std::runtime_error(path.string() + ": trained for other tables than this model folder's (vocab.txt, tones.tsv, "
                                 "align.tsv or words.tsv differ)" + retrain);
    judge.m_bias = readValue<float>(in, at, path);
    for (float& w : judge.m_dense) w = readValue<float>(in, at, path);
    std::memcpy(judge.m_sparse.data(), in.data() + at, judge.m_sparse.size() * sizeof(float));
    return judge;
}

std::uint64_t judgeTablesFingerprint(const std::filesystem::path& modelDir)
{
    std::uint64_t h = kFnv1aOffset;
    for (const char* name : {"vocab.txt", "tones.tsv", "align.tsv", "words.tsv"}) {
        std::ifstream file(modelDir / name, std::ios::binary);
        if (!file) continue;
        h = fnv1a(h, name, std::strlen(name));
        char buffer[1 << 16];
        while (file.read(buffer, sizeof buffer) || file.gcount() > 0)
            h = fnv1a(h, buffer, static_cast<std::size_t>(file.gcount()));
    }
    return h;
}

} // namespace couplet
