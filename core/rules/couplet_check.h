#pragma once

#include "generation_spec.h"

#include <string>
#include <vector>

namespace couplet {

// The formal rules of a couplet, checked on finished text: both lines the
// same length, punctuation mirrored, nothing but Han characters and couplet
// punctuation, no 上联 character in the 下联 unless mirrored, a 横批 of four
// Han characters. Returns one message per broken rule (empty = valid).
std::vector<std::string> coupletViolations(const Couplet& couplet);

} // namespace couplet
