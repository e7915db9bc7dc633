#include "align_table_builder.h"

namespace couplet {

AlignTable buildAlignTable(const TrainingData& data, const AlignTable::BuildOptions& options)
{
    AlignTable table;
    for (const auto& source : data.sources())
        for (const auto& pair : source.train) table.addPair(pair.upper, pair.lower);
    table.prune(options);
    return table;
}

} // namespace couplet
