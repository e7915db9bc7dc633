#pragma once

#include "args.h"

namespace couplet::cli {

// couplet eval --prompts FILE.tsv: writes every prompt of a judged set and
// reports keyword coverage, the 平仄 score, distinct-2 and the time per request.
int runPromptEval(Args& args);

} // namespace couplet::cli
