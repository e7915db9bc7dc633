#include "script_converter.h"

#include "utf8.h"

#include <opencc/SimpleConverter.hpp>

#include <array>
#include <mutex>

namespace couplet {
namespace {

// A couplet line read in its 音步, the two-character feet its 平仄 is
// counted in, the odd one closing on three (七言 2+2+3, 五言 2+3, 横批 2+2),
// each clause on its own (long couplets have commas). OpenCC matches the
// longest phrase from the left across the whole line, so 一生发财 reads as
// 一/生发/财 and gives 生髮 (growing hair): converted foot by foot it is
// 一生 發財. A word rarely crosses a foot.
std::vector<std::string> rhythmUnits(std::string_view line)
{
    std::vector<std::string> units;
    std::vector<std::string> clause;
    const auto flush = [&] {
        for (std::size_t i = 0; i < clause.size();) {
            const std::size_t take = clause.size() - i == 3 ? 3 : std::min<std::size_t>(2, clause.size() - i);
            std::string unit;
            for (std::size_t k = i; k < i + take; ++k) unit += clause[k];
            units.push_back(std::move(unit));
            i += take;
        }
        clause.clear();
    };
    for (std::string& ch : utf8::characters(line)) {
        if (utf8::isHan(utf8::decode(ch)[0])) {
            clause.push_back(std::move(ch));
            continue;
        }
        flush();
        units.push_back(std::move(ch));
    }
    flush();
    return units;
}

// OpenCC's own configurations (Debian: libopencc-data), by file name: the
// library looks them up in its data folder.
const char* configOf(OutputScript script)
{
    switch (script) {
    case OutputScript::Traditional: return "s2t.json";
    case OutputScript::Taiwan: return "s2tw.json";
    case OutputScript::TaiwanPhrases: return "s2twp.json";
    case OutputScript::HongKong: return "s2hk.json";
    case OutputScript::Simplified: break;
    }
    return nullptr;
}

} // namespace

struct ScriptConverter::Impl {
    explicit Impl(const char* config) : converter(config) {}
    opencc::SimpleConverter converter;
};

ScriptConverter::ScriptConverter(OutputScript script) : m_script(script)
{
    const char* config = configOf(script);
    if (config == nullptr) return;
    try {
        m_impl = std::make_unique<Impl>(config);
    } catch (const std::exception& e) {
        throw ScriptError("cannot convert to " + std::string(outputScriptName(script)) + " characters: OpenCC's "
                          + config + " did not load (" + e.what() + "); install libopencc-data");
    }
}

ScriptConverter::~ScriptConverter() = default;

const ScriptConverter& ScriptConverter::forScript(OutputScript script)
{
    static std::mutex mutex;
    static std::array<std::unique_ptr<ScriptConverter>, 5> converters;
    std::lock_guard lock(mutex);
    auto& slot = converters[static_cast<std::size_t>(script)];
    if (!slot) slot.reset(new ScriptConverter(script));
    return *slot;
}

std::string ScriptConverter::convert(std::string_view text) const
{
    if (!m_impl || text.empty()) return std::string(text);
    std::string out;
    for (const std::string& unit : rhythmUnits(text)) out += convertUnit(unit);
    return out;
}

std::string ScriptConverter::convertUnit(std::string_view unit) const
{
    std::string out = m_impl->converter.Convert(unit.data(), unit.size());
    if (utf8::length(out) == utf8::length(unit)) return out;
    // Taiwan's words (方便面 -> 泡麵) fall back to Taiwan's forms (方便麵).
    if (m_script == OutputScript::TaiwanPhrases) return forScript(OutputScript::Taiwan).convertUnit(unit);
    return byCharacter(unit);
}

std::string ScriptConverter::byCharacter(std::string_view text) const
{
    std::string out;
    for (const std::string& ch : utf8::characters(text)) {
        std::string converted = m_impl->converter.Convert(ch);
        out += utf8::length(converted) == 1 ? converted : ch;
    }
    return out;
}

Couplet ScriptConverter::convert(Couplet couplet) const
{
    couplet.upper = convert(couplet.upper);
    couplet.lower = convert(couplet.lower);
    couplet.hengpi = convert(couplet.hengpi);
    return couplet;
}

Couplet inScript(const Couplet& couplet, OutputScript script)
{
    if (script == OutputScript::Simplified) return couplet;
    return ScriptConverter::forScript(script).convert(couplet);
}

} // namespace couplet
