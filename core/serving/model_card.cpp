#include "model_card.h"

#include <fstream>

namespace couplet {
namespace {

std::string trimmed(std::string s)
{
    const auto b = s.find_first_not_of(" \t`");
    const auto e = s.find_last_not_of(" \t`\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

} // namespace

ModelCard ModelCard::read(const std::filesystem::path& modelDir)
{
    ModelCard card;
    const auto dir = modelDir.filename().empty() ? modelDir.parent_path() : modelDir;
    card.id = dir.filename().string();
    card.name = card.id;
    std::ifstream in(modelDir / "MODEL_CARD.md");
    bool titled = false;
    for (std::string line; std::getline(in, line);) {
        if (!titled && line.rfind("# ", 0) == 0) {
            std::string title = trimmed(line.substr(2));
            // "Couplet Studio default model (`resources/models/default`)": the path is not part of the name.
            if (const auto paren = title.find(" ("); paren != std::string::npos) title.resize(paren);
            card.name = title;
            titled = true;
        } else if (line.rfind("| size |", 0) == 0) {
            card.size = trimmed(line.substr(8, line.rfind('|') - 8));
        }
    }
    return card;
}

} // namespace couplet
