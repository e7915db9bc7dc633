#pragma once

#include "bulk_poster_sink.h"

#include <QString>

namespace couplet {

// A bulk CSV job as the import dialog sets it up; the app adds the rest of
// an engine BulkRequest.
struct BulkImport {
    QString input;
    QString output;
    QString encoding;       // "" = detect; else a name parseEncodingName() takes
    QString mapping;        // every role, in ColumnMapping::applyOverrides() form; "" = from the header
    bool jsonLines = false;
    bool bom = true;        // CSV: a UTF-8 BOM for Excel
    bool englishHeader = false;
    bool resume = false;
    bool noRepeats = false;   // no couplet twice in the job (BulkJobOptions::noRepeats); this computer only
    int candidatesPerRow = 0; // sampled per row, the best kept; 0 = the bulk default (kBulkRerankFactor)
    QString redisUrl;       // "" = this computer; else redis://HOST:PORT[/DB]: `couplet worker`s generate the rows
    BulkPosterOptions posters;   // dir empty: no posters; else the app makes the sink (BulkRequest::posterSink)
};

} // namespace couplet
