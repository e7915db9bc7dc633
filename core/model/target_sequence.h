#pragma once

#include "vocab.h"

#include <vector>

namespace couplet {

// A token sequence and, for each position, whether predicting the next token
// counts: in the loss when training (the prompt part does not), in the score
// when a decoder rates a given line (decoder_nll.h).
struct TrainingExample {
    std::vector<int> tokens;
    std::vector<char> target; // target[i]: tokens[i + 1] is trained on
};

// The fixed prompt <bos> [style] <lenN> <up> given <down> followed by answer <hp>;
// only the answer's tokens are targets. With the 上联 given, the reference
// 下联's likelihood; with the lines swapped, the couplet read backwards.
// `style`: a style token (Vocab::styleToken), or -1 for none.
inline TrainingExample answerExample(const std::vector<int>& given, const std::vector<int>& answer, int style = -1)
{
    TrainingExample ex;
    auto& t = ex.tokens;
    t = {tok::kBos};
    if (style >= 0) t.push_back(style);
    t.push_back(tok::lengthToken(static_cast<int>(given.size())));
    t.push_back(tok::kUpper);
    t.insert(t.end(), given.begin(), given.end());
    t.push_back(tok::kLower);
    const std::size_t answerStart = t.size();
    t.insert(t.end(), answer.begin(), answer.end());
    t.push_back(tok::kHengpi);
    ex.target.assign(t.size(), 0);
    for (std::size_t i = 0; i < answer.size(); ++i) ex.target[answerStart - 1 + i] = 1;
    return ex;
}

} // namespace couplet
