#pragma once

#include <string>

namespace couplet::testing {

// Path of the couplet binary under test, which CTest passes in COUPLET_CLI;
// throws std::runtime_error saying so when it is not set.
std::string cliUnderTest();

} // namespace couplet::testing
