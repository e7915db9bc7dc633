#pragma once

#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

namespace couplet {

class Vocab;

// Four-character auspicious phrases a 横批 is chosen from. No corpus pairs a
// 横批 with each couplet, so the list is built from the idiom dictionaries
// (keeping phrases with auspicious characters and none of ill omen) plus the
// stock 横批 of spring couplets, and ships with the model as hengpi.txt.
class HengpiList {
public:
    struct Phrase {
        std::u32string text;
        double weight = 0; // higher = more common / more festive
        bool stock = false;
        unsigned occasions = 0; // Occasion bits (occasion.h): only for these; 0 = any couplet
    };

    // From ../shared/data/idioms (idioms-pinyin.json, thuocl-chengyu.tsv).
    static HengpiList fromIdioms(const std::filesystem::path& idiomsDir);
    // hengpi.txt: "phrase<TAB>weight<TAB>stock|idiom[<TAB>occasion,...]" lines
    // (occasion names: occasionName(), e.g. wedding).
    static HengpiList load(const std::filesystem::path& path);
    void save(const std::filesystem::path& path) const;

    const std::vector<Phrase>& phrases() const { return m_phrases; }
    // Phrases sharing at least one meaningful character with `text`, best
    // first: (shared characters, stock, weight). At most `limit`.
    std::vector<int> related(const std::u32string& text, std::size_t limit) const;
    // Drops phrases with characters the vocabulary lacks.
    void restrictTo(const Vocab& vocab);

private:
    void add(const std::u32string& text, double weight, bool stock, unsigned occasions = 0);
    void index();
    // The occasions' own 横批 (tagged), and the dictionaries' idioms that
    // are no blessing over a door dropped.
    void addOccasionPhrases();

    std::vector<Phrase> m_phrases;
    std::unordered_map<char32_t, std::vector<int>> m_byChar;
};

} // namespace couplet
