#pragma once

#include "couplet_style.h"
#include "couplet_text.h"

#include <QImage>
#include <QSize>
#include <QString>

namespace couplet {

// A phone-sized image of one couplet as it hangs on a door, to hand to a
// user: 1080 x 1920 pixels, drawn by CoupletRenderer (the preview's look).
inline constexpr QSize kShareCardSize{1080, 1920};

QImage renderShareCard(const CoupletText& text, const CoupletStyle& style = {});

// Writes the card as PNG, or as one PDF page of the same proportions when
// `path` ends in .pdf; returns "" or what went wrong, naming the file.
QString writeShareCard(const QString& path, const CoupletText& text, const CoupletStyle& style = {});

} // namespace couplet
