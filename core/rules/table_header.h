#pragma once

#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

namespace couplet {

// The statistics files shipped beside the model (align.tsv, bigrams.tsv): a
// refusal that names the file and the line, and their header line.
[[noreturn]] void badTableLine(const std::filesystem::path& path, int lineNo, const std::string& what);

// The fields of a header line "@ key=number key=number ...". Keys in
// `wordKeys` take a word (score=logcount) and are left out; any other field
// that is not key=number is refused with badTableLine.
std::map<std::string, double> tableHeaderFields(const std::string& line, const std::filesystem::path& path, int lineNo,
                                                std::initializer_list<std::string_view> wordKeys = {});

} // namespace couplet
