#include "bulk_job_options.h"

#include "text_encoding.h"

namespace couplet {

BulkJobOptions bulkJobOptions(const BulkRequest& r)
{
    BulkJobOptions o;
    o.input = r.input.toStdString();
    o.output = r.output.toStdString();
    if (!r.encoding.isEmpty())
        o.encoding = parseEncodingName(r.encoding.toStdString());
    o.mappingOverrides = r.mapping.toStdString();
    o.outputOptions.format = r.jsonLines ? OutputFormat::JsonLines : OutputFormat::Csv;
    o.outputOptions.bom = r.bom;
    o.outputOptions.language = r.englishHeader ? HeaderLanguage::English : HeaderLanguage::Chinese;
    o.defaults = r.defaults;
    o.resume = r.resume;
    o.noRepeats = r.noRepeats;
    o.maxInFlight = r.maxInFlight;
    return o;
}

} // namespace couplet
