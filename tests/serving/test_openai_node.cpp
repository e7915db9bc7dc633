// One run of the official OpenAI Node client (npm package `openai`) against a
// real server. Skips (exit 77, reported by CTest as skipped) when node or the
// package is absent: tests/serving/node/install.sh installs the package.

#include "server_rig.h"

#include "source_dir.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

using namespace couplet::testing;

int main()
{
    const std::filesystem::path dir = std::filesystem::path(COUPLET_SOURCE_DIR) / "tests" / "serving" / "node";
    if (std::system("node --version >/dev/null 2>&1") != 0) {
        std::cout << "SKIP: node is not installed, so the OpenAI Node client was not run\n";
        return 77;
    }
    if (!std::filesystem::exists(dir / "node_modules" / "openai" / "package.json")) {
        std::cout << "SKIP: the npm package openai is not installed; run " << (dir / "install.sh").string() << '\n';
        return 77;
    }
    ServerRig rig;
    const std::string command = "node '" + (dir / "openai_client.mjs").string() + "' 'http://127.0.0.1:"
        + std::to_string(rig.port) + "/v1'";
    const int status = std::system(command.c_str());
    if (status != 0) {
        std::cout << "FAIL: " << command << " exited with " << status << '\n';
        return 1;
    }
    return 0;
}
