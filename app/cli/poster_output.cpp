#include "poster_output.h"

#include "headless_gui.h"
#include "share_card.h"

namespace couplet::cli {

std::string writePoster(const std::string& path, const Couplet& couplet)
{
    const HeadlessGui gui;
    const CoupletText text{QString::fromStdString(couplet.upper), QString::fromStdString(couplet.lower),
                           QString::fromStdString(couplet.hengpi)};
    return writeShareCard(QString::fromStdString(path), text).toStdString();
}

} // namespace couplet::cli
