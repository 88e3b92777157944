#include "text/datetime.h"

#include <array>
#include <regex>
#include <string>

namespace petstore::text {

bool is_date_time(std::string_view text) {
  static const std::regex kShape(
      R"(^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$)");
  std::cmatch m;
  if (text.size() > 40 || !std::regex_match(text.begin(), text.end(), m, kShape)) {
    return false;
  }
  auto n = [&m](size_t i) { return std::stoi(m[i].str()); };
  const int year = n(1);
  const int month = n(2);
  const int day = n(3);
  constexpr std::array<int, 12> kDays = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || day > kDays.at(static_cast<size_t>(month - 1))) {
    return false;
  }
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month == 2 && day == 29 && !leap) {
    return false;
  }
  if (n(4) > 23 || n(5) > 59 || n(6) > 60) {
    return false;
  }
  return !m[9].matched || (n(9) <= 23 && n(10) <= 59);
}

}  // namespace petstore::text
