#include "align_table_builder.h"

#include <algorithm>
#include <cmath>

namespace couplet {

namespace {

// How many times each corpus's pairs are counted. By size: once each. By mix:
// in proportion to the corpus's training weight over its pair count, the
// largest share per pair scaled to whole counts with the smallest at 1, so
// that a corpus drawn 55% of the time also holds about 55% of the counts.
std::vector<std::uint32_t> pairMultiplicity(const TrainingData& data, bool byMix)
{
    const auto& sources = data.sources();
    std::vector<std::uint32_t> times(sources.size(), 1);
    if (!byMix) return times;
    std::vector<double> perPair(sources.size(), 0);
    double smallest = 0;
    for (std::size_t i = 0; i < sources.size(); ++i) {
        if (sources[i].train.empty() || !(sources[i].weight > 0)) continue;
        perPair[i] = sources[i].weight / static_cast<double>(sources[i].train.size());
        if (smallest == 0 || perPair[i] < smallest) smallest = perPair[i];
    }
    for (std::size_t i = 0; i < sources.size(); ++i)
        times[i] = perPair[i] > 0 ? static_cast<std::uint32_t>(std::max(1.0, std::round(perPair[i] / smallest))) : 0;
    return times;
}

} // namespace

AlignTable buildAlignTable(const TrainingData& data, const AlignTable::BuildOptions& options)
{
    AlignTable table;
    const auto times = pairMultiplicity(data, options.byMix);
    for (std::size_t i = 0; i < data.sources().size(); ++i)
        for (const auto& pair : data.sources()[i].train) table.addPair(pair.upper, pair.lower, times[i]);
    table.prune(options);
    return table;
}

BigramTable buildBigramTable(const TrainingData& data, std::uint32_t minCount, double weight)
{
    BigramTable table;
    for (const auto& source : data.sources())
        for (const auto& pair : source.train) {
            table.addLine(pair.upper);
            table.addLine(pair.lower);
        }
    table.prune(minCount);
    table.setDefaultWeight(weight);
    return table;
}

} // namespace couplet
