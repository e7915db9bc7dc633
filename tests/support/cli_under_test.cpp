#include "cli_under_test.h"

#include <cstdlib>
#include <stdexcept>

namespace couplet::testing {

std::string cliUnderTest()
{
    const char* cli = std::getenv("COUPLET_CLI");
    if (!cli || !*cli) throw std::runtime_error("COUPLET_CLI is not set (the couplet binary under test)");
    return cli;
}

} // namespace couplet::testing
