#pragma once

#include <QString>

namespace couplet {

// A bulk CSV job as the import dialog sets it up (the app turns it into an
// engine request).
struct BulkImport {
    QString input;
    QString output;
    QString encoding;       // a name parseEncodingName() takes
    QString mapping;        // every role, in ColumnMapping::applyOverrides() form
    bool jsonLines = false;
    bool bom = true;
    bool englishHeader = false;
    bool resume = false;
};

} // namespace couplet
