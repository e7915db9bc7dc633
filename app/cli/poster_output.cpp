#include "poster_output.h"

#include "share_card.h"

#include <QGuiApplication>

#include <memory>

namespace couplet::cli {

std::string writePoster(const std::string& path, const Couplet& couplet)
{
    // Fonts and painting need a QGuiApplication; a server has no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "couplet";
    static char* argv[] = {name, nullptr};
    const bool own = QGuiApplication::instance() == nullptr;
    std::unique_ptr<QGuiApplication> app(own ? new QGuiApplication(argc, argv) : nullptr);
    const CoupletText text{QString::fromStdString(couplet.upper), QString::fromStdString(couplet.lower),
                           QString::fromStdString(couplet.hengpi)};
    return writeShareCard(QString::fromStdString(path), text).toStdString();
}

} // namespace couplet::cli
