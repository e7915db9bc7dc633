#pragma once

#include "couplet_constraints.h"
#include "generation_spec.h"
#include "sampler.h"
#include "token_policy.h"

#include <string>
#include <vector>

namespace couplet {

class CoupletModelImpl;

// Decoding biases. The first two need the model's align.tsv (ignored without one).
struct DecodingBiases {
    float alignWeight = 0;  // 对仗 fusion
    float lengthBias = 0;   // the line-end bias of fixed lengths
    float bigramWeight = 0; // characters seen after the previous one (the model's bigrams.tsv)
    bool wholeKeywords = false; // hold back characters that would tear a keyword (whole_keywords.h)
    float keywordBonus = 0; // logits for starting a missing keyword in the 上联 (3x for continuing one)
    std::vector<std::vector<int>> keywords;
    // The lines of the theme example the prompt holds (example_index.h): a
    // line written may not equal one of them, so that the example is never
    // handed back.
    std::vector<std::vector<int>> exampleLines;
};

// One candidate couplet being written: the prompt, the constraints that mask
// each step, the sampler, and the text streamed so far. Text is always
// "上联\n下联\n横批" (an Upper-mode policy starts by emitting the given 上联).
class CoupletPolicy : public TokenPolicy {
public:
    CoupletPolicy(const CoupletModelImpl& model, std::vector<int> prompt, ConstraintSpec constraints,
                  const SamplingSettings& sampling, std::vector<int> themeTokens, DecodingBiases biases = {});

    std::vector<int> promptTokens() const override { return m_prompt; }
    int choose(std::span<const float> logits) override;
    bool finished() const override { return m_constraints.done(); }
    const std::vector<int>& generated() const override { return m_generated; }
    std::string takeTextDelta() override;
    double logProb() const override { return m_logProb; }

    Couplet couplet() const;
    // Tokens this couplet may not write unless the prompt typed them (its
    // keywords, given 上联, name or 横批): the vocabulary's non-Simplified
    // forms for a Simplified couplet (simplified_forms.h). Before the first choose().
    void keepOut(const std::vector<int>& tokens);

private:
    // The additive bias for this step: the 对仗 row of the mirrored 上联
    // character while writing the 下联, the theme while writing the 横批.
    const std::vector<float>& stepBias();
    void addBias(int token, float value);
    // Lines of a fixed length: characters that usually end a line are held
    // back one position before the end and favoured at the end, so that the
    // line does not close early and leave its last character to be padded.
    void addLengthBias();
    // Favours the characters real lines write after the line's last one.
    void addBigramBias();
    // Favours the keywords the 上联 lacks: the next character of one it ends
    // with, else their first characters.
    void addKeywordBias();
    // Characters the line being written must have; 0 = free (or the 横批).
    std::size_t lineLength() const;
    // Tokens that would finish a line equal to an example line (exampleLines).
    void banExampleCopies(std::vector<int>& banned) const;
    // Counts a line whose last character is due while the model would end it.
    void noteForcedLineEnd(std::span<const float> logits);

    const CoupletModelImpl& m_model;
    std::vector<int> m_prompt;
    std::vector<int> m_typed;       // the prompt's own characters, sorted (keepOut spares them)
    std::vector<int> m_keptOut;
    std::vector<int> m_banned;      // this step's banned tokens (choose)
    std::vector<float> m_masked;    // [vocab] the logits with them masked
    CoupletConstraints m_constraints;
    Sampler m_sampler;
    std::vector<int> m_themeTokens; // keywords: favoured in the 横批
    DecodingBiases m_biases;
    std::vector<int> m_keywordChars; // the keywords' characters, sorted, each once (addBigramBias)
    std::vector<float> m_bias;      // [vocab], zero but for m_biased
    std::vector<int> m_biased;      // tokens with a bias this step
    Segment m_biasSegment = Segment::Upper;
    int m_forcedLineEnds = 0;
    std::vector<int> m_generated;
    std::string m_pending;          // text not yet taken
    double m_logProb = 0;
};

} // namespace couplet
