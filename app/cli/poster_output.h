#pragma once

#include "generation_spec.h"

#include <string>

namespace couplet::cli {

// generate --poster PATH: the couplet as a 1080 x 1920 share card (PNG, or
// a PDF page for .pdf), drawn by the app's renderer (render/, QtGui) on the
// offscreen platform when there is no display. Returns "" or the problem,
// e.g. that this build has no renderer.
std::string writePoster(const std::string& path, const Couplet& couplet);

} // namespace couplet::cli
