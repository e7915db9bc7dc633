#include "batch_posters.h"

namespace couplet::cli {

std::unique_ptr<BulkPosters> openPosters(const PosterOptions& options)
{
    throw UsageError("cannot write posters into " + options.dir.string()
                     + ": this couplet was built without QtGui, which draws posters "
                       "(install qt6-base-dev and build again)");
}

} // namespace couplet::cli
