#pragma once

#include "bulk_poster_sink.h"

#include <QStringList>

#include <memory>
#include <stdexcept>
#include <string>

namespace couplet {

// A poster choice that cannot be used: `option` is "size" or "font" (the
// CLI's --poster-size, the import dialog's Size), what() says why.
class PosterOptionsError : public std::invalid_argument {
public:
    PosterOptionsError(std::string option, const std::string& why) : std::invalid_argument(why), m_option(std::move(option)) {}
    const std::string& option() const { return m_option; }

private:
    std::string m_option;
};

// The posters of a bulk job, drawn with render/ (share card, print PDF) on
// threads of their own; the one implementation behind `couplet batch
// --posters` and the app's "Posters next to the CSV". Checks the options
// first: PosterOptionsError for a size or font that cannot be used,
// std::runtime_error when DIR cannot be made. Makes the QGuiApplication
// fonts need (offscreen) when the program has none.
std::unique_ptr<BulkPosterSink> makeBulkPosters(const BulkPosterOptions& options);

// The installed Chinese font families that write the characters every
// couplet has (春, 福, ...): the font choices offered. Needs a QGuiApplication.
QStringList posterFontFamilies();

} // namespace couplet
