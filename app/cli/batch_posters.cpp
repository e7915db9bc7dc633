#include "batch_posters.h"

#include "bulk_posters.h"

namespace couplet::cli {

std::unique_ptr<BulkPosters> openPosters(const PosterOptions& options)
{
    try {
        return makeBulkPosters(options);
    } catch (const PosterOptionsError& e) {
        throw UsageError("--poster-" + e.option() + ": " + e.what());
    }
}

} // namespace couplet::cli
