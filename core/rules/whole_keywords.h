#pragma once

#include <string>
#include <unordered_set>
#include <vector>

namespace couplet {

class Vocab;
class WordTable;

// Keeps a keyword whole while a line is written: blind judges reject a line
// whose words tear the keyword apart (乔迁 in 王乔迁客舍, read 王乔 / 迁; 家和 in
// 千家和睦; 新居 in 新居士; 金榜 in 金榜样). By the word table's split (the one
// the rerank's torn-keyword term reads), the next character is held back when
//   - it completes the keyword and a word of the line so far holds the
//     keyword's first part and what stands before it (人生 + 意 for 生意), or
//   - the line ends with the keyword and the character makes a word with its
//     last part (居 + 士, 榜 + 样),
// unless the line's last three characters would start a four-character word
// that holds the keyword (五福临 of 五福临门, 生意兴 of 生意兴隆). A word the
// table lacks is not seen: it has no 王乔, so 王乔迁 reads 王 / 乔迁.
class WholeKeywords {
public:
    // Indexes `words` for `vocab`; both must outlive this object.
    void build(const WordTable& words, const Vocab& vocab);
    bool empty() const { return m_words == nullptr; }

    // Appends to `out` the tokens that, written after `line` (tokens of the
    // line being written), would leave `keyword` (tokens) torn.
    void tornNext(const std::vector<int>& line, const std::vector<int>& keyword, std::vector<int>& out) const;

private:
    bool tears(const std::u32string& text, const std::u32string& keyword) const;

    const WordTable* m_words = nullptr;
    const Vocab* m_vocab = nullptr;
    std::vector<std::vector<int>> m_followers;     // [vocab]: b of each two-character word ab
    std::unordered_set<std::u32string> m_starts;   // the first three characters of four-character words
};

} // namespace couplet
