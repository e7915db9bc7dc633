#include "vocab.h"

#include "utf8.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace couplet {
namespace {

constexpr const char* kExampleTokenName = "<ex>";

std::vector<std::string> specialNames()
{
    std::vector<std::string> names = {"<pad>", "<unk>", "<bos>", "<eos>", "<kw>",
                                      "<ac>",  "<up>",  "<down>", "<hp>", "<sep>"};
    for (int n = 1; n <= tok::kMaxLineChars; ++n) names.push_back("<len" + std::to_string(n) + ">");
    return names;
}

} // namespace

bool isCoupletPunctuation(char32_t c)
{
    static constexpr std::u32string_view kMarks = U"，、？：！；";
    return kMarks.find(c) != std::u32string_view::npos;
}

Vocab::Vocab() : Vocab(std::vector<char32_t>{}) {}

Vocab::Vocab(const std::vector<char32_t>& characters)
{
    m_pieces = specialNames();
    m_chars.assign(m_pieces.size(), 0);
    for (char32_t c : characters) {
        if (m_index.count(c) != 0) continue;
        m_index[c] = static_cast<int>(m_pieces.size());
        m_pieces.push_back(utf8::encode(c));
        m_chars.push_back(c);
    }
}

Vocab Vocab::load(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    const auto specials = specialNames();
    std::vector<char32_t> chars;
    std::vector<WritingStyle> styles; // after the characters
    bool example = false;             // <ex>, after the characters too
    std::vector<std::string> trailing; // style names and "" for <ex>, in the file's order
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (lineNo <= static_cast<int>(specials.size())) {
            if (line != specials[lineNo - 1])
                throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo) + " should be "
                                         + specials[lineNo - 1] + ", found \"" + line + "\"");
            continue;
        }
        if (line == kExampleTokenName) {
            if (example)
                throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo) + ": a second " + line);
            example = true;
            trailing.emplace_back(); // "" stands for <ex>
            continue;
        }
        if (line.size() > 2 && line.front() == '<' && line.back() == '>') {
            const auto style = parseStyle(std::string_view(line).substr(1, line.size() - 2));
            if (!style)
                throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo) + ": unknown token "
                                         + line + " (style tokens are <" + styleNames() + ">)");
            styles.push_back(*style);
            trailing.push_back(std::string(styleName(*style)));
            continue;
        }
        if (!styles.empty() || example)
            throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo)
                                     + ": a character after the style tokens or <ex> (they come last)");
        std::u32string cps;
        try {
            cps = utf8::decode(line);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo) + ": " + e.what());
        }
        if (cps.size() != 1)
            throw std::runtime_error(path.string() + ": line " + std::to_string(lineNo)
                                     + " should hold one character, found \"" + line + "\"");
        chars.push_back(cps[0]);
    }
    if (lineNo < static_cast<int>(specials.size()))
        throw std::runtime_error(path.string() + ": truncated, " + std::to_string(lineNo) + " lines");
    Vocab vocab(chars);
    // The tokens after the characters keep their ids, in the file's order.
    for (const auto& t : trailing) {
        if (t.empty()) vocab = vocab.withExampleToken();
        else vocab.appendStyle(*parseStyle(t));
    }
    return vocab;
}

void Vocab::appendStyle(WritingStyle style)
{
    if (styleToken(style) >= 0) return;
    m_styleIds[static_cast<std::size_t>(style)] = size();
    m_pieces.push_back(styleTokenName(style));
    m_chars.push_back(0);
}

Vocab Vocab::withExampleToken() const
{
    Vocab v = *this;
    if (v.m_exampleId >= 0) return v;
    v.m_exampleId = v.size();
    v.m_pieces.push_back(kExampleTokenName);
    v.m_chars.push_back(0);
    return v;
}

Vocab Vocab::withStyleTokens() const
{
    Vocab v = *this;
    for (WritingStyle s : kWritingStyles) v.appendStyle(s);
    return v;
}

void Vocab::save(const std::filesystem::path& path) const
{
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    for (const auto& p : m_pieces) out << p << '\n';
}

int Vocab::id(char32_t c) const
{
    const auto it = m_index.find(c);
    return it == m_index.end() ? tok::kUnk : it->second;
}

char32_t Vocab::character(int id) const
{
    return id >= 0 && id < size() ? m_chars[id] : 0;
}

std::string Vocab::piece(int id) const
{
    return id >= 0 && id < size() ? m_pieces[id] : "<?>";
}

bool Vocab::isPunctuation(int id) const
{
    return isCharacter(id) && isCoupletPunctuation(m_chars[id]);
}

bool Vocab::isHan(int id) const
{
    return isCharacter(id) && utf8::isHan(m_chars[id]);
}

std::vector<int> Vocab::encode(std::string_view text) const
{
    std::vector<int> ids;
    for (char32_t c : utf8::decode(text)) ids.push_back(id(c));
    return ids;
}

std::string Vocab::decode(const std::vector<int>& ids) const
{
    std::string s;
    for (int i : ids)
        if (isCharacter(i)) s += m_pieces[i];
    return s;
}

std::u32string Vocab::unknownCharacters(std::string_view text) const
{
    std::u32string out;
    for (char32_t c : utf8::decode(text))
        if (!contains(c) && out.find(c) == std::u32string::npos) out.push_back(c);
    return out;
}

} // namespace couplet
