#include "preference_data.h"

#include "fnv1a.h"
#include "keyword_plan.h"
#include "line_shape.h"
#include "utf8.h"

#include <fstream>
#include <stdexcept>

namespace couplet {
namespace {

std::vector<std::string> splitTabs(const std::string& line)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const auto tab = line.find('\t', start);
        parts.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
        if (tab == std::string::npos) return parts;
        start = tab + 1;
    }
}

bool allKnown(const std::string& text, const Vocab& vocab) { return vocab.unknownCharacters(text).empty(); }

// The request's characters, without the spaces and commas between keywords.
std::string requestCharacters(const std::string& text)
{
    std::string out;
    for (const auto& k : splitKeywords(text)) out += utf8::encode(k);
    return out;
}

} // namespace

TrainingExample requestExample(const std::string& mode, const std::string& text, int length, const std::string& upper,
                               const std::string& lower, const Vocab& vocab)
{
    TrainingExample ex;
    auto& t = ex.tokens;
    t.push_back(tok::kBos);
    if (vocab.hasStyles()) t.push_back(vocab.styleToken(WritingStyle::Festive));
    const auto up = vocab.encode(upper);
    const auto down = vocab.encode(lower);
    if (up.empty() || down.empty()) throw std::invalid_argument("an empty line");
    std::size_t targetsFrom = 0; // the position whose next token is the first target
    if (mode == "upper") {
        if (upper != text) throw std::invalid_argument("the 上联 \"" + upper + "\" is not the given one \"" + text + "\"");
        t.push_back(tok::lengthToken(static_cast<int>(up.size())));
        t.push_back(tok::kUpper);
        t.insert(t.end(), up.begin(), up.end());
        t.push_back(tok::kLower);
        targetsFrom = t.size() - 1;
    } else if (mode == "keywords" || mode == "acrostic") {
        if (mode == "keywords") {
            const auto keywords = splitKeywords(text);
            if (!keywords.empty()) t.push_back(tok::kKeywords);
            for (std::size_t i = 0; i < keywords.size(); ++i) {
                if (i > 0) t.push_back(tok::kSep);
                for (char32_t ch : keywords[i]) t.push_back(vocab.id(ch));
            }
        } else {
            const auto name = vocab.encode(text);
            if (name.empty()) throw std::invalid_argument("an acrostic request without a name");
            t.push_back(tok::kAcrostic);
            t.insert(t.end(), name.begin(), name.end());
        }
        if (length > 0) t.push_back(tok::lengthToken(lineShapeFor(length).tokens()));
        t.push_back(tok::kUpper);
        targetsFrom = t.size() - 1;
        t.insert(t.end(), up.begin(), up.end());
        t.push_back(tok::kLower);
    } else {
        throw std::invalid_argument("mode \"" + mode + "\" (keywords, acrostic or upper)");
    }
    t.insert(t.end(), down.begin(), down.end());
    t.push_back(tok::kHengpi);
    ex.target.assign(t.size(), 0);
    for (std::size_t i = targetsFrom; i + 2 < t.size(); ++i) ex.target[i] = 1; // up to the 下联's last character
    return ex;
}

PreferenceSet loadPreferences(const std::filesystem::path& path, const Vocab& vocab)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path.string() + ": cannot read the preferences");
    PreferenceSet set;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const auto where = path.string() + ":" + std::to_string(number) + ": ";
        if (const auto bad = utf8::firstInvalid(line); bad != std::string::npos)
            throw std::runtime_error(where + "not UTF-8 (byte " + std::to_string(bad + 1) + " of the line)");
        const auto f = splitTabs(line);
        if (f.size() != 7)
            throw std::runtime_error(where + std::to_string(f.size())
                                     + " fields; a preference row has 7 (mode, text, length, chosen 上联, chosen 下联,"
                                       " rejected 上联, rejected 下联)");
        int length = 0;
        try {
            std::size_t used = 0;
            length = std::stoi(f[2], &used);
            if (used != f[2].size() || length < 0 || length > tok::kMaxLineChars) throw std::out_of_range(f[2]);
        } catch (const std::exception&) {
            throw std::runtime_error(where + "length \"" + f[2] + "\" is not a line length (0-"
                                     + std::to_string(tok::kMaxLineChars) + ")");
        }
        if (!allKnown(requestCharacters(f[1]) + f[3] + f[4] + f[5] + f[6], vocab)) {
            ++set.skipped;
            continue;
        }
        PreferencePair pair;
        try {
            pair.chosen = requestExample(f[0], f[1], length, f[3], f[4], vocab);
            pair.rejected = requestExample(f[0], f[1], length, f[5], f[6], vocab);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(where + e.what());
        }
        pair.request = f[0] + "\t" + f[1] + "\t" + f[2];
        pair.heldOut = fnv1a(kFnv1aOffset, pair.request.data(), pair.request.size()) % 10 == 0;
        set.pairs.push_back(std::move(pair));
    }
    return set;
}

} // namespace couplet
