#pragma once

#include "generation_spec.h"
#include "output_script.h"

#include <memory>
#include <vector>
#include <string>
#include <string_view>

namespace couplet {

// Converts what the model wrote (Simplified) into another script with
// OpenCC, by phrase: 头发 -> 頭髮 but 发展 -> 發展, 干净 -> 乾淨 but 干部 -> 幹部.
// The phrases are looked up foot by foot (七言 2+2+3: 一生|发财|家家乐), not
// across the line, where OpenCC's longest match from the left would read
// 一生发财 as 一/生发 (生髮, growing hair)/财.
// A line keeps its length: where a phrase conversion would change it
// (s2twp: 方便面 -> 泡麵), the line is converted with Taiwan's forms only
// (s2tw: 方便麵), or else character by character, so that the 上联 and 下联 still face each other character for
// character. Loading a table takes tens of milliseconds: each script's
// converter is made once (forScript) and is safe to use from any thread.
class ScriptConverter {
public:
    // Throws ScriptError when OpenCC or its tables are missing.
    static const ScriptConverter& forScript(OutputScript script);

    OutputScript script() const { return m_script; }
    // One line (or any text), same number of characters out as in.
    std::string convert(std::string_view text) const;
    Couplet convert(Couplet couplet) const;

    ~ScriptConverter();
    ScriptConverter(const ScriptConverter&) = delete;
    ScriptConverter& operator=(const ScriptConverter&) = delete;

private:
    explicit ScriptConverter(OutputScript script);
    // One foot of a line (two or three characters), keeping its length.
    std::string convertUnit(std::string_view unit) const;
    std::string byCharacter(std::string_view text) const;

    struct Impl;
    OutputScript m_script;
    std::unique_ptr<Impl> m_impl; // null for Simplified
};

// A couplet in `script` (unchanged for Simplified).
Couplet inScript(const Couplet& couplet, OutputScript script);

struct ScriptError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace couplet
