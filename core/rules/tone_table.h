#pragma once

#include <filesystem>
#include <unordered_map>

namespace couplet {

enum class Tone { Unknown, Level, Oblique }; // 平 (tones 1, 2) and 仄 (tones 3, 4)

// The tone class of each character, for the rule that 上联 ends on 仄 and
// 下联 on 平. Built from the tone numbers of the idiom dictionary (the most
// frequent reading of a character wins; 入声 of classical prosody is not
// modelled, modern Mandarin tones are), shipped with the model as tones.tsv.
class ToneTable {
public:
    // From idioms-pinyin.json ("pinyinplain": "a1,bi2,di4,yu4").
    static ToneTable fromIdioms(const std::filesystem::path& idiomsJson);
    // tones.tsv: "character<TAB>P" (平) or "character<TAB>Z" (仄) lines.
    static ToneTable load(const std::filesystem::path& path);
    void save(const std::filesystem::path& path) const;

    Tone tone(char32_t c) const;
    std::size_t size() const { return m_tones.size(); }

private:
    std::unordered_map<char32_t, Tone> m_tones;
};

} // namespace couplet
