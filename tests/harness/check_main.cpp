#include "check.h"

#include <cstdio>
#include <cstring>

namespace couplet::test {
std::vector<Case>& registry()
{
    static std::vector<Case> cases;
    return cases;
}
} // namespace couplet::test

// Usage: test-binary [substring]  runs the tests whose name contains substring.
int main(int argc, char** argv)
{
    int passed = 0, failed = 0;
    for (const auto& c : couplet::test::registry()) {
        if (argc > 1 && std::strstr(c.name, argv[1]) == nullptr) continue;
        try {
            c.body();
            ++passed;
            std::printf("PASS %s\n", c.name);
        } catch (const couplet::test::Failure& f) {
            ++failed;
            std::printf("FAIL %s\n  %s\n", c.name, f.message.c_str());
        } catch (const std::exception& e) {
            ++failed;
            std::printf("FAIL %s\n  unexpected exception: %s\n", c.name, e.what());
        }
        std::fflush(stdout);
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}
