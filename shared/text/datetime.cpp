#include "text/datetime.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <ctime>

namespace petstore::text {

namespace {

// The value of `count` ASCII digits at `at`, or -1 if any is not a digit.
int digits(std::string_view t, size_t at, size_t count) {
  if (at + count > t.size()) {
    return -1;
  }
  int v = 0;
  for (size_t i = at; i < at + count; ++i) {
    if (t[i] < '0' || t[i] > '9') {
      return -1;
    }
    v = v * 10 + (t[i] - '0');
  }
  return v;
}

bool at(std::string_view t, size_t i, char c) {
  return i < t.size() && t[i] == c;
}

}  // namespace

// YYYY-MM-DDTHH:MM:SS[.1-9 digits](Z|+HH:MM|-HH:MM), read by hand: it runs on
// every event an auditor replays (tools/petstore-audit), where a regex
// matcher cost more than the rest of the header checks together.
bool is_date_time(std::string_view t) {
  const int year = digits(t, 0, 4);
  const int month = digits(t, 5, 2);
  const int day = digits(t, 8, 2);
  const int hour = digits(t, 11, 2);
  const int minute = digits(t, 14, 2);
  const int second = digits(t, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || !at(t, 4, '-') ||
      !at(t, 7, '-') || !(at(t, 10, 'T') || at(t, 10, 't')) || !at(t, 13, ':') || !at(t, 16, ':')) {
    return false;
  }
  size_t i = 19;
  if (at(t, i, '.')) {
    size_t n = 0;
    for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
      ++n;
    }
    if (n < 1 || n > 9) {
      return false;
    }
  }
  if (at(t, i, 'Z') || at(t, i, 'z')) {
    ++i;
  } else if (at(t, i, '+') || at(t, i, '-')) {
    const int oh = digits(t, i + 1, 2);
    const int om = digits(t, i + 4, 2);
    if (oh < 0 || om < 0 || !at(t, i + 3, ':') || oh > 23 || om > 59) {
      return false;
    }
    i += 6;
  } else {
    return false;
  }
  if (i != t.size()) {
    return false;
  }
  constexpr std::array<int, 12> kDays = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || day > kDays.at(static_cast<size_t>(month - 1))) {
    return false;
  }
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month == 2 && day == 29 && !leap) {
    return false;
  }
  return hour <= 23 && minute <= 59 && second <= 60;
}

std::optional<std::int64_t> parse_time_ms(std::string_view t) {
  if (!text::is_date_time(t)) {
    return std::nullopt;
  }
  // is_date_time has checked the shape: YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)
  const auto num = [&](size_t at, size_t len) {
    int v = 0;
    std::from_chars(t.data() + at, t.data() + at + len, v);
    return v;
  };
  std::tm tm{};
  tm.tm_year = num(0, 4) - 1900;
  tm.tm_mon = num(5, 2) - 1;
  tm.tm_mday = num(8, 2);
  tm.tm_hour = num(11, 2);
  tm.tm_min = num(14, 2);
  tm.tm_sec = std::min(num(17, 2), 59);  // a leap second counts as :59
  std::int64_t ms = static_cast<std::int64_t>(timegm(&tm)) * 1000;
  size_t i = 19;
  if (i < t.size() && t[i] == '.') {
    std::int64_t scale = 100;
    for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, scale /= 10) {
      ms += (t[i] - '0') * scale;
    }
  }
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) {
    const std::int64_t offset_min = num(i + 1, 2) * 60 + num(i + 4, 2);
    ms -= (t[i] == '+' ? 1 : -1) * offset_min * 60 * 1000;
  }
  return ms;
}

}  // namespace petstore::text
