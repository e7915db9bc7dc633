#include "tone_table.h"

#include "utf8.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace couplet {

ToneTable ToneTable::fromIdioms(const std::filesystem::path& idiomsJson)
{
    std::ifstream in(idiomsJson);
    if (!in) throw std::runtime_error("cannot open " + idiomsJson.string());
    const auto idioms = nlohmann::json::parse(in);
    std::map<char32_t, std::pair<int, int>> votes; // level, oblique
    for (const auto& item : idioms) {
        const auto word = utf8::decode(item.value("word", std::string()));
        std::istringstream syllables(item.value("pinyinplain", std::string()));
        std::string syllable;
        for (std::size_t i = 0; i < word.size() && std::getline(syllables, syllable, ','); ++i) {
            const char t = syllable.empty() ? '0' : syllable.back();
            if (t == '1' || t == '2') ++votes[word[i]].first;
            else if (t == '3' || t == '4') ++votes[word[i]].second;
        }
    }
    ToneTable table;
    for (const auto& [c, v] : votes)
        if (v.first != v.second) table.m_tones[c] = v.first > v.second ? Tone::Level : Tone::Oblique;
    return table;
}

ToneTable ToneTable::load(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    ToneTable table;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        const auto tab = line.find('\t');
        std::u32string c;
        try {
            c = utf8::decode(line.substr(0, tab));
        } catch (const std::invalid_argument&) {
        }
        const std::string kind = tab == std::string::npos ? "" : line.substr(tab + 1);
        if (c.size() != 1 || (kind != "P" && kind != "Z"))
            throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo)
                                     + ": expected \"character<TAB>P|Z\"");
        table.m_tones[c[0]] = kind == "P" ? Tone::Level : Tone::Oblique;
    }
    return table;
}

void ToneTable::save(const std::filesystem::path& path) const
{
    std::map<char32_t, Tone> sorted(m_tones.begin(), m_tones.end());
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    for (const auto& [c, t] : sorted) out << utf8::encode(c) << '\t' << (t == Tone::Level ? 'P' : 'Z') << '\n';
}

Tone ToneTable::tone(char32_t c) const
{
    const auto it = m_tones.find(c);
    return it == m_tones.end() ? Tone::Unknown : it->second;
}

} // namespace couplet
