#pragma once

#include "engine_types.h"

#include "bulk_job.h"

namespace couplet {

// The core job options of an app bulk request (the same for a job on this
// computer and one on workers).
BulkJobOptions bulkJobOptions(const BulkRequest& request);

} // namespace couplet
