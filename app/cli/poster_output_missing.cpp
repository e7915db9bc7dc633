#include "poster_output.h"

namespace couplet::cli {

std::string writePoster(const std::string& path, const Couplet&)
{
    return "cannot write the poster " + path + ": this couplet was built without QtGui, which draws posters "
           "(install qt6-base-dev and build again)";
}

} // namespace couplet::cli
