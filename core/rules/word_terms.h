#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace couplet {

class WordTable;

// What the words of a couplet say about it (WordTable's split of each line).
struct WordTerms {
    // Characters in runs of two or more that make no word of the table
    // (五景, 福光): made-up words read this way.
    int looseCharacters = 0;
    // Keywords split across words (万家 / 和 / 气 tears 家和; 生意兴隆 holds 生意 whole).
    int tornKeywords = 0;
    // 对仗 word by word: the share of the 上联's words of two or more
    // characters whose 下联 counterpart, in the same places, is a word of the
    // same part of speech (丰登 / 盛誉: both words, verb against noun); 0.5
    // when the 上联 has none.
    double matchedWords = 0.5;
};

// Whether `keyword` stands in `line` torn: a word of the line's split holds
// part of it and part of what is around it (万家 / 和气 tears 家和). A word
// that holds it whole (生意兴隆 for 生意) keeps it. A keyword of the table
// is torn too, whatever the split, where its last character makes a commoner
// word with the next (育人文: 育 / 人文), or its first one with a loose
// character before it (人生意), unless a longer word holds it. The first occurrence in
// each clause is read.
bool tearsKeyword(const WordTable& table, std::u32string_view line, std::u32string_view keyword);

WordTerms wordTermsOf(const WordTable& table, std::u32string_view upper, std::u32string_view lower,
                      const std::vector<std::u32string>& keywords);

} // namespace couplet
