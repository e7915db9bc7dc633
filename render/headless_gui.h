#pragma once

#include <memory>

class QGuiApplication;

namespace couplet {

// The QGuiApplication that fonts and painting need, for a command-line
// program: on the offscreen platform when there is no display, so that a
// server renders posters without X or Wayland. Does nothing when an
// application object exists already.
class HeadlessGui {
public:
    HeadlessGui();
    ~HeadlessGui();
    HeadlessGui(const HeadlessGui&) = delete;
    HeadlessGui& operator=(const HeadlessGui&) = delete;

private:
    std::unique_ptr<QGuiApplication> m_app;
};

} // namespace couplet
