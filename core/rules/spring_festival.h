#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace couplet {

// The year whose Spring Festival (正月初一) is the next to come on `day`,
// the festival's own day included: on 2026-12-06 and on 2027-02-06 it is
// 2027, on 2027-02-07 it is 2028. A couplet is written for that festival, so
// every door defaults its year (GenerationSpec::year) to it.
int comingSpringFestivalYear(std::chrono::year_month_day day);
// The same for today's local date.
int comingSpringFestivalYear();

// The date of the festival of `year` from the table (2024-2050), or none.
std::optional<std::chrono::year_month_day> springFestivalDate(int year);

// A year as a user writes it in a door: "2027", "0", "none" or "无" (no
// year), "" (the coming one, `fallback`). Returns -1 for anything else.
int parseYearText(std::string_view text, int fallback);

} // namespace couplet
