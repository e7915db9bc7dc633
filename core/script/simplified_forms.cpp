#include "simplified_forms.h"

#include "script_converter.h"
#include "utf8.h"

#include <opencc/Config.hpp>
#include <opencc/Conversion.hpp>
#include <opencc/ConversionChain.hpp>
#include <opencc/Converter.hpp>
#include <opencc/Dict.hpp>
#include <opencc/DictEntry.hpp>
#include <opencc/Exception.hpp>

#include <iconv.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>

namespace couplet {
namespace {

// Variant forms OpenCC 1.1 has in none of its tables (U+9CEF 鳯 for 鳳).
constexpr std::u32string_view kVariantsOpenCcLacks = U"鳯";

// One OpenCC configuration's dictionaries, looked up one character at a time.
class ConfigDicts {
public:
    explicit ConfigDicts(const char* config)
    {
        opencc::Config loader;
        const opencc::ConverterPtr converter = loader.NewFromFile(config);
        for (const opencc::ConversionPtr& c : converter->GetConversionChain()->GetConversions())
            m_dicts.push_back(c->GetDict());
    }

    // The values of the first table that has the character, or nothing.
    std::optional<std::vector<std::string>> valuesOf(const std::string& character) const
    {
        for (const opencc::DictPtr& d : m_dicts) {
            const auto entry = d->Match(character.data(), character.size());
            if (!entry.IsNull()) return entry.Get()->Values();
        }
        return std::nullopt;
    }

private:
    std::vector<opencc::DictPtr> m_dicts;
};

struct Tables {
    ConfigDicts toSimplified{"t2s.json"};
    ConfigDicts fromSimplified{"s2t.json"};
    ConfigDicts fromJapanese{"jp2t.json"};
};

const Tables& tables()
{
    static const Tables* t = [] {
        try {
            return new Tables;
        } catch (const opencc::Exception& e) {
            throw ScriptError(std::string("OpenCC's tables (Debian: libopencc-data) cannot be read: ") + e.what());
        }
    }();
    return *t;
}

// GB 2312's 6,763 characters are Simplified: no Traditional or Japanese
// form among them, but common ones that OpenCC's Japanese table maps (予 to
// 豫, 缶 to 罐) and a few that its t2s table does (吒 to 咤, as in 哪吒).
bool inGb2312(const std::string& character)
{
    static std::mutex mutex;
    static const iconv_t cd = iconv_open("GB2312", "UTF-8");
    if (cd == reinterpret_cast<iconv_t>(-1)) return false;
    const std::lock_guard lock(mutex);
    std::string in = character;
    char out[8];
    char* inPtr = in.data();
    char* outPtr = out;
    std::size_t inLeft = in.size(), outLeft = sizeof out;
    iconv(cd, nullptr, nullptr, nullptr, nullptr);
    return iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft) != static_cast<std::size_t>(-1) && inLeft == 0;
}

bool changesAway(const std::optional<std::vector<std::string>>& values, const std::string& character)
{
    return values && std::find(values->begin(), values->end(), character) == values->end();
}

} // namespace

bool isNonSimplified(char32_t c)
{
    if (kVariantsOpenCcLacks.find(c) != std::u32string_view::npos) return true;
    const Tables& t = tables();
    const std::string s = utf8::encode(c);
    if (t.fromSimplified.valuesOf(s) || inGb2312(s)) return false;   // Simplified (国, 发, 予)
    return changesAway(t.toSimplified.valuesOf(s), s) || changesAway(t.fromJapanese.valuesOf(s), s);
}

std::shared_ptr<const std::vector<int>> nonSimplifiedTokens(const Vocab& vocab)
{
    std::string contents;
    for (int id = 0; id < vocab.size(); ++id) contents += vocab.piece(id) + '\n';
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const std::vector<int>>> cache;
    const std::lock_guard lock(mutex);
    auto& entry = cache[contents];
    if (!entry) {
        auto tokens = std::make_shared<std::vector<int>>();
        for (int id = 0; id < vocab.size(); ++id)
            if (vocab.isHan(id) && isNonSimplified(vocab.character(id))) tokens->push_back(id);
        entry = std::move(tokens);
    }
    return entry;
}

} // namespace couplet
