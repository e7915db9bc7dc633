#include "output_script.h"

#include <array>
#include <cctype>
#include <string>

namespace couplet {
namespace {

struct Alias {
    std::string_view name;
    OutputScript script;
};

constexpr std::array<Alias, 25> kAliases{{
    {"simplified", OutputScript::Simplified}, {"s", OutputScript::Simplified},     {"zh-hans", OutputScript::Simplified},
    {"简体", OutputScript::Simplified},       {"简", OutputScript::Simplified},    {"traditional", OutputScript::Traditional},
    {"t", OutputScript::Traditional},         {"s2t", OutputScript::Traditional},  {"zh-hant", OutputScript::Traditional},
    {"繁体", OutputScript::Traditional},      {"繁", OutputScript::Traditional},   {"taiwan", OutputScript::Taiwan},
    {"tw", OutputScript::Taiwan},             {"s2tw", OutputScript::Taiwan},      {"zh-tw", OutputScript::Taiwan},
    {"taiwan-phrases", OutputScript::TaiwanPhrases}, {"taiwanphrases", OutputScript::TaiwanPhrases},
    {"s2twp", OutputScript::TaiwanPhrases},
    {"台湾", OutputScript::Taiwan},           {"台湾繁体", OutputScript::Taiwan},  {"hongkong", OutputScript::HongKong},
    {"hk", OutputScript::HongKong},           {"s2hk", OutputScript::HongKong},    {"zh-hk", OutputScript::HongKong},
    {"香港", OutputScript::HongKong},
}};

} // namespace

std::optional<OutputScript> parseOutputScript(std::string_view text)
{
    std::string key;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)) && c != '_') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (key == "hong-kong") key = "hongkong";
    for (const auto& a : kAliases)
        if (a.name == key) return a.script;
    return std::nullopt;
}

std::string_view outputScriptName(OutputScript script)
{
    switch (script) {
    case OutputScript::Simplified: return "simplified";
    case OutputScript::Traditional: return "traditional";
    case OutputScript::Taiwan: return "taiwan";
    case OutputScript::HongKong: return "hongkong";
    case OutputScript::TaiwanPhrases: return "taiwan-phrases";
    }
    return "simplified";
}

std::string_view outputScriptChoices()
{
    return "simplified, traditional, taiwan, taiwan-phrases or hongkong";
}

} // namespace couplet
