#include "spring_festival.h"

#include "zodiac.h"

#include <array>
#include <charconv>
#include <ctime>

namespace couplet {
namespace {

using namespace std::chrono;

struct Festival {
    int year;
    unsigned month, day;
};

// 正月初一 (Beijing time), written from the published calendars, not computed
// here; each agrees within a day with the date 19 years before (the lunar
// cycle: 2045-02-17 as 2026-02-17), which is how the table was checked.
constexpr std::array<Festival, 27> kFestivals = {{
    {2024, 2, 10}, {2025, 1, 29}, {2026, 2, 17}, {2027, 2, 6},  {2028, 1, 26}, {2029, 2, 13}, {2030, 2, 3},
    {2031, 1, 23}, {2032, 2, 11}, {2033, 1, 31}, {2034, 2, 19}, {2035, 2, 8},  {2036, 1, 28}, {2037, 2, 15},
    {2038, 2, 4},  {2039, 1, 24}, {2040, 2, 12}, {2041, 2, 1},  {2042, 1, 22}, {2043, 2, 10}, {2044, 1, 30},
    {2045, 2, 17}, {2046, 2, 6},  {2047, 1, 26}, {2048, 2, 14}, {2049, 2, 2},  {2050, 1, 23},
}};

// Outside the table the festival is taken to fall on 1 February (it falls
// between 21 January and 20 February): off by a few weeks at most.
constexpr month_day kTypicalFestival{February, day{1}};

} // namespace

std::optional<year_month_day> springFestivalDate(int y)
{
    for (const Festival& f : kFestivals)
        if (f.year == y) return year_month_day{year{y}, month{f.month}, day{f.day}};
    return std::nullopt;
}

int comingSpringFestivalYear(year_month_day today)
{
    const int y = static_cast<int>(today.year());
    const auto festival = springFestivalDate(y).value_or(year_month_day{year{y}, kTypicalFestival.month(), kTypicalFestival.day()});
    return today <= festival ? y : y + 1;
}

int comingSpringFestivalYear()
{
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    return comingSpringFestivalYear(year_month_day{year{local.tm_year + 1900}, month{static_cast<unsigned>(local.tm_mon + 1)},
                                                   day{static_cast<unsigned>(local.tm_mday)}});
}

int parseYearText(std::string_view text, int fallback)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    if (text.empty()) return fallback;
    if (text == "none" || text == "无" || text == "0") return 0;
    int value = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > kMaxYear) return -1;
    return value;
}

} // namespace couplet
